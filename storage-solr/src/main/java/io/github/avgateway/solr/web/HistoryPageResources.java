package io.github.avgateway.solr.web;

import org.springframework.web.servlet.config.annotation.ResourceHandlerRegistry;
import org.springframework.web.servlet.config.annotation.ViewControllerRegistry;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;

/**
 * Serves the history page: its files under {@code /history/**} from the class path (no CDN, no
 * front-end build), {@code /history/} as the page, and {@code /} redirected to it.
 */
public class HistoryPageResources implements WebMvcConfigurer {

  /** Where the page's files are on the class path. */
  static final String LOCATION = "classpath:/avgateway/history/";

  @Override
  public void addResourceHandlers(ResourceHandlerRegistry registry) {
    registry.addResourceHandler("/history/**").addResourceLocations(LOCATION);
  }

  @Override
  public void addViewControllers(ViewControllerRegistry registry) {
    registry.addRedirectViewController("/", "/history/");
    registry.addRedirectViewController("/history", "/history/");
    registry.addViewController("/history/").setViewName("forward:/history/index.html");
  }
}
