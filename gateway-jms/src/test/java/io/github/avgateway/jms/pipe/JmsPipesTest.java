package io.github.avgateway.jms.pipe;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.avgateway.core.config.HistoryStreamProperties;
import io.github.avgateway.core.pipe.Pipe;
import io.github.avgateway.jms.config.JmsProperties;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;

class JmsPipesTest {

  private static final HistoryStreamProperties HISTORY =
      new Binder(new MapConfigurationPropertySource(Map.of()))
          .bindOrCreate("avgateway.history", HistoryStreamProperties.class);

  /** The JMS properties with {@code pipes}, each given as its four queue names. */
  private static JmsProperties withPipes(List<List<String>> pipes) {
    Map<String, String> values = new HashMap<>();
    List<String> roles = List.of("inbox", "clean", "quarantine", "rejected");
    for (int i = 0; i < pipes.size(); i++) {
      for (int r = 0; r < 4; r++) {
        values.put("avgateway.jms.pipes[" + i + "]." + roles.get(r), pipes.get(i).get(r));
      }
    }
    return new Binder(new MapConfigurationPropertySource(values))
        .bindOrCreate("avgateway.jms", JmsProperties.class);
  }

  @Test
  void noPipesByDefault() {
    assertThat(JmsPipes.checked(withPipes(List.of()), HISTORY)).isEmpty();
  }

  @Test
  void pipesAreBoundInOrderAndMayShareAnOutlet() {
    JmsProperties properties =
        withPipes(
            List.of(
                List.of("a.inbox", "a.clean", "all.quarantine", "a.rejected"),
                List.of("b.inbox", "b.clean", "all.quarantine", "b.rejected")));
    assertThat(JmsPipes.checked(properties, HISTORY))
        .containsExactly(
            new Pipe("a.inbox", "a.clean", "all.quarantine", "a.rejected"),
            new Pipe("b.inbox", "b.clean", "all.quarantine", "b.rejected"));
  }

  @Test
  void aPipeQueueThatIsOneOfTheGatewaysOwnIsRefusedNamingBothKeys() {
    JmsProperties properties =
        withPipes(List.of(List.of("a.inbox", "a.clean", "av.scan.dead-letters", "a.rejected")));
    assertThatThrownBy(() -> JmsPipes.checked(properties, HISTORY))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("avgateway.jms.pipes[0].quarantine")
        .hasMessageContaining("avgateway.jms.dead-letter-queue");
    JmsProperties history =
        withPipes(List.of(List.of(HISTORY.queue(), "a.clean", "a.quarantine", "a.rejected")));
    assertThatThrownBy(() -> JmsPipes.checked(history, HISTORY))
        .hasMessageContaining("avgateway.history.queue");
    JmsProperties request =
        withPipes(List.of(List.of("av.scan.requests", "a.clean", "a.quarantine", "a.rejected")));
    assertThatThrownBy(() -> JmsPipes.checked(request, HISTORY))
        .hasMessageContaining("avgateway.jms.request-queue");
  }

  @Test
  void twoPipesSharingAnInboxAreRefused() {
    JmsProperties properties =
        withPipes(
            List.of(
                List.of("in", "a.clean", "a.quarantine", "a.rejected"),
                List.of("in", "b.clean", "b.quarantine", "b.rejected")));
    assertThatThrownBy(() -> JmsPipes.checked(properties, HISTORY))
        .hasMessageContaining("avgateway.jms.pipes[1].inbox")
        .hasMessageContaining("avgateway.jms.pipes[0].inbox")
        .hasMessageContaining("share an inbox");
  }

  @Test
  void anOutletThatIsAPipesInboxIsRefused() {
    JmsProperties properties =
        withPipes(
            List.of(
                List.of("a.inbox", "b.inbox", "a.quarantine", "a.rejected"),
                List.of("b.inbox", "b.clean", "b.quarantine", "b.rejected")));
    assertThatThrownBy(() -> JmsPipes.checked(properties, HISTORY))
        .hasMessageContaining("avgateway.jms.pipes[0].clean")
        .hasMessageContaining("forwarded again");
  }

  @Test
  void aPipeWithTwoRolesOnOneQueueFailsToBind() {
    assertThatThrownBy(() -> withPipes(List.of(List.of("a", "a.clean", "a.clean", "a.rejected"))))
        .hasRootCauseMessage(
            "a pipe's inbox, clean, quarantine and rejected must be four different queues, got"
                + " [a, a.clean, a.clean, a.rejected]");
  }
}
