package io.github.avgateway.solr.web;

import io.github.avgateway.core.model.Verdict;
import java.time.Instant;
import java.util.Arrays;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.MissingServletRequestParameterException;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;
import org.springframework.web.method.annotation.MethodArgumentTypeMismatchException;

/**
 * Answers every failed history API request with an RFC 9457 problem document: {@code type} and
 * {@code error} from {@link HistoryApiError}, {@code detail} saying what was wrong, and {@code
 * parameter} naming the bad parameter. Applies to {@link HistoryApiController} only.
 */
@RestControllerAdvice(assignableTypes = HistoryApiController.class)
public class HistoryApiErrors {

  private static final Logger log = LoggerFactory.getLogger(HistoryApiErrors.class);

  @ExceptionHandler(HistoryApiException.class)
  ResponseEntity<ProblemDetail> apiError(HistoryApiException e) {
    if (e.error() == HistoryApiError.STORE_UNAVAILABLE) {
      log.warn("history query failed: {}", e.getCause() == null ? e : e.getCause().toString());
    }
    return problem(e.error(), e.parameter(), e.getMessage());
  }

  @ExceptionHandler(MissingServletRequestParameterException.class)
  ResponseEntity<ProblemDetail> missing(MissingServletRequestParameterException e) {
    String name = e.getParameterName();
    return problem(HistoryApiError.BAD_PARAMETER, name, name + ": is required");
  }

  @ExceptionHandler(MethodArgumentTypeMismatchException.class)
  ResponseEntity<ProblemDetail> mismatch(MethodArgumentTypeMismatchException e) {
    String name = e.getName();
    Class<?> type = e.getRequiredType();
    String expected =
        type == Verdict.class
            ? "one of " + Arrays.toString(Verdict.values())
            : type == Instant.class
                ? "an ISO-8601 instant such as 2026-01-31T12:00:00Z"
                : "a valid " + (type == null ? "value" : type.getSimpleName());
    return problem(
        HistoryApiError.BAD_PARAMETER,
        name,
        name + ": must be " + expected + ", was '" + shortened(e.getValue()) + "'");
  }

  private static String shortened(Object value) {
    String text = String.valueOf(value);
    return text.length() <= 80 ? text : text.substring(0, 80) + "…";
  }

  static ResponseEntity<ProblemDetail> problem(
      HistoryApiError error, String parameter, String detail) {
    ProblemDetail body = ProblemDetail.forStatusAndDetail(error.status(), detail);
    body.setType(error.type());
    body.setTitle(error.title());
    body.setProperty("error", error.name());
    if (parameter != null) {
      body.setProperty("parameter", parameter);
    }
    return ResponseEntity.status(error.status())
        .contentType(MediaType.APPLICATION_PROBLEM_JSON)
        .body(body);
  }
}
