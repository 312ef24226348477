package io.github.avgateway.solr.web;

import io.github.avgateway.core.model.MessageInfo;
import io.github.avgateway.core.model.Verdict;
import io.github.avgateway.core.port.HistoryCursor;
import io.github.avgateway.core.port.HistoryOrder;
import io.github.avgateway.core.port.HistoryQueries;
import io.github.avgateway.core.port.HourlyVerdictCounts;
import io.github.avgateway.core.port.SignatureCount;
import io.github.avgateway.core.port.TimeRange;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * The history queries over HTTP ({@code /api/history/...}, JSON). Read-only. Times are ISO-8601
 * instants of a request's receipt; a range is {@code [from, to)}, by default the last day. Bad
 * parameters are answered 400, an unknown request id 404, a store failure 503, each with a problem
 * document ({@link HistoryApiError}).
 */
@RestController
@RequestMapping(path = "/api/history", produces = MediaType.APPLICATION_JSON_VALUE)
@Tag(name = "history", description = "One document per scanned request, from the history store")
@ApiResponse(
    responseCode = "400",
    description = "A parameter is missing or malformed",
    content =
        @Content(
            mediaType = MediaType.APPLICATION_PROBLEM_JSON_VALUE,
            schema = @Schema(implementation = ProblemDetail.class)))
@ApiResponse(
    responseCode = "503",
    description = "The history store did not answer",
    content =
        @Content(
            mediaType = MediaType.APPLICATION_PROBLEM_JSON_VALUE,
            schema = @Schema(implementation = ProblemDetail.class)))
public class HistoryApiController {

  static final int MAX_LIMIT = 500;

  private final HistoryQueries queries;
  private final List<String> transports;
  private final Clock clock;

  /**
   * @param transports transports searched, in order, when a lookup by request id names none
   */
  public HistoryApiController(HistoryQueries queries, List<String> transports, Clock clock) {
    this.queries = queries;
    this.transports = List.copyOf(transports);
    this.clock = clock;
  }

  @GetMapping("/by-request-id")
  @Operation(
      summary = "The document of one request",
      description =
          "Without transport, each configured transport is searched in turn. Sees a"
              + " document as soon as the store accepted it.")
  @ApiResponse(responseCode = "200", description = "The document")
  @ApiResponse(
      responseCode = "404",
      description = "No document has this request id",
      content =
          @Content(
              mediaType = MediaType.APPLICATION_PROBLEM_JSON_VALUE,
              schema = @Schema(implementation = ProblemDetail.class)))
  public MessageInfo byRequestId(
      @Parameter(description = "the transport's message id") @RequestParam String requestId,
      @Parameter(description = "jms, amqp, …") @RequestParam(required = false) String transport) {
    String id = HistoryParams.requestId(requestId);
    List<String> searched =
        transport == null ? transports : List.of(HistoryParams.transport(transport));
    for (String t : searched) {
      Optional<MessageInfo> found = store(() -> queries.byRequestId(t, id));
      if (found.isPresent()) {
        return found.get();
      }
    }
    throw HistoryApiException.notFound(
        "no history document for request id " + id + " on " + searched);
  }

  @GetMapping("/by-sha256")
  @Operation(summary = "The newest documents about one file content, newest first")
  @ApiResponse(responseCode = "200", description = "The documents; empty when none")
  public List<MessageInfo> bySha256(
      @Parameter(description = "SHA-256 of the file, 64 hex digits") @RequestParam String sha256,
      @RequestParam(defaultValue = "20") int limit) {
    String hash = HistoryParams.sha256(sha256);
    int n = HistoryParams.limit("limit", limit, MAX_LIMIT);
    return store(() -> queries.bySha256(hash, n));
  }

  @GetMapping("/by-correlation-id")
  @Operation(summary = "The newest documents of requests with one correlation id, newest first")
  @ApiResponse(responseCode = "200", description = "The documents; empty when none")
  public List<MessageInfo> byCorrelationId(
      @Parameter(description = "the correlation id exactly as the caller set it") @RequestParam
          String correlationId,
      @RequestParam(defaultValue = "20") int limit) {
    String id = HistoryParams.correlationId(correlationId);
    int n = HistoryParams.limit("limit", limit, MAX_LIMIT);
    return store(() -> queries.byCorrelationId(id, n));
  }

  @GetMapping("/by-trace-id")
  @Operation(summary = "The newest documents of requests handled in one trace, newest first")
  @ApiResponse(responseCode = "200", description = "The documents; empty when none")
  public List<MessageInfo> byTraceId(
      @Parameter(description = "the W3C trace id, 32 hex digits (16 for a 64-bit trace id)")
          @RequestParam
          String traceId,
      @RequestParam(defaultValue = "20") int limit) {
    String id = HistoryParams.traceId(traceId);
    int n = HistoryParams.limit("limit", limit, MAX_LIMIT);
    return store(() -> queries.byTraceId(id, n));
  }

  @GetMapping("/by-verdict")
  @Operation(
      summary = "One page of the documents with a verdict, newest first",
      description =
          "Follow next as cursor for the following page; paging is stable while"
              + " documents are added.")
  @ApiResponse(responseCode = "200", description = "One page")
  public HistoryPageJson byVerdict(
      @RequestParam Verdict verdict,
      @RequestParam(required = false) Instant from,
      @RequestParam(required = false) Instant to,
      @Parameter(description = "next of the previous page") @RequestParam(required = false)
          String cursor,
      @RequestParam(defaultValue = "50") int size) {
    TimeRange range = HistoryParams.range(from, to, clock.instant());
    int n = HistoryParams.limit("size", size, MAX_LIMIT);
    HistoryCursor start = HistoryParams.cursor(cursor);
    try {
      return HistoryPageJson.of(queries.byVerdict(verdict, range, start, n));
    } catch (IllegalArgumentException e) {
      throw HistoryApiException.badParameter(
          "cursor", "not a cursor the store issued for this query");
    } catch (RuntimeException e) {
      throw HistoryApiException.storeUnavailable(e);
    }
  }

  @GetMapping("/recent")
  @Operation(
      summary = "The first documents of any verdict in a range, newest first by default",
      description = "order=oldest-first lists the earliest received first.")
  @ApiResponse(responseCode = "200", description = "The documents; empty when none")
  public List<MessageInfo> recent(
      @RequestParam(required = false) Instant from,
      @RequestParam(required = false) Instant to,
      @RequestParam(defaultValue = "20") int limit,
      @Parameter(description = "newest-first (default) or oldest-first")
          @RequestParam(defaultValue = "newest-first")
          String order) {
    TimeRange range = HistoryParams.range(from, to, clock.instant());
    int n = HistoryParams.limit("limit", limit, MAX_LIMIT);
    HistoryOrder sort = HistoryParams.order(order);
    return store(() -> queries.recent(range, n, sort));
  }

  @GetMapping("/top-signatures")
  @Operation(summary = "The most frequent signatures, most frequent first")
  @ApiResponse(responseCode = "200", description = "Signatures with their document counts")
  public List<SignatureCount> topSignatures(
      @RequestParam(required = false) Instant from,
      @RequestParam(required = false) Instant to,
      @RequestParam(defaultValue = "10") int limit) {
    TimeRange range = HistoryParams.range(from, to, clock.instant());
    int n = HistoryParams.limit("limit", limit, MAX_LIMIT);
    return store(() -> queries.topSignatures(range, n));
  }

  @GetMapping("/verdicts-per-hour")
  @Operation(
      summary = "Document counts per verdict for every hour of a range, oldest first",
      description =
          "Hours are UTC; hours without documents are included with zero counts. The"
              + " range spans at most 31 days.")
  @ApiResponse(responseCode = "200", description = "One entry per hour")
  public List<HourlyVerdictCounts> verdictsPerHour(
      @RequestParam(required = false) Instant from, @RequestParam(required = false) Instant to) {
    TimeRange range = HistoryParams.hourlyRange(from, to, clock.instant());
    return store(() -> queries.verdictsPerHour(range));
  }

  /** Runs a store query; whatever it throws means the store could not answer (port contract). */
  private static <T> T store(Supplier<T> query) {
    try {
      return query.get();
    } catch (RuntimeException e) {
      throw HistoryApiException.storeUnavailable(e);
    }
  }
}
