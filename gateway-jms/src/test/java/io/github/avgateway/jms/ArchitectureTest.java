package io.github.avgateway.jms;

import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideOutsideOfPackage;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import io.github.avgateway.core.testing.StageRule;
import io.github.avgateway.jms.config.JmsProperties;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The JMS front-end is split by stage (docs/architecture.md, "Vocabulary"), and each stage package
 * sees only what it must:
 *
 * <ul>
 *   <li>{@code triage} (request mapping, the triage, the reply-destination policy): nothing else of
 *       the front-end; it decides from the received message alone.
 *   <li>{@code history} (history message, buffer, stream, backlog probe and indexer): nothing else
 *       of the front-end.
 *   <li>{@code intake} (the consumers, their batches and transacted sessions, the intake hold):
 *       {@code triage}, whose policy names a refused reply destination in the session's log line,
 *       and {@code history}, where a batch hands its documents before it commits.
 *   <li>{@code reply} (replies, dead-letters and the request processor): {@code intake}, whose
 *       session sends them in the batch's transaction, and {@code triage}.
 *   <li>{@code pipe} (the clean-pipe processor and forwards): {@code reply}, {@code intake} and
 *       {@code triage}, as the request processor plus the forward.
 *   <li>{@code broker} (the embedded Artemis and its history backlog count): {@code pipe} and
 *       {@code triage}, for the queues and prefixes it declares.
 * </ul>
 *
 * <p>No stage sees {@code client}, nor {@code config} except {@link JmsProperties}, which the
 * consumers, the pipes and the embedded broker read; the stage packages have no cycle (leaving
 * {@code config} aside, which builds them all); and only {@code config} declares Spring
 * configuration (auto-configuration, {@code @Bean} methods, bound properties).
 */
class ArchitectureTest {

  private static final String BASE = "io.github.avgateway.jms";

  private static final StageRule STAGES =
      new StageRule(
          BASE,
          List.of("intake", "triage", "reply", "pipe", "history", "broker"),
          JmsProperties.class);

  private final JavaClasses front =
      new ClassFileImporter()
          .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
          .importPackages(BASE);

  @Test
  void triageSeesNoOtherStage() {
    STAGES.mayOnlySee("triage").check(front);
  }

  @Test
  void historySeesNoOtherStage() {
    STAGES.mayOnlySee("history").check(front);
  }

  @Test
  void intakeSeesOnlyTriageAndHistory() {
    STAGES.mayOnlySee("intake", "triage", "history").check(front);
  }

  @Test
  void replySeesOnlyIntakeAndTriage() {
    STAGES.mayOnlySee("reply", "intake", "triage").check(front);
  }

  @Test
  void pipeSeesOnlyReplyIntakeAndTriage() {
    STAGES.mayOnlySee("pipe", "reply", "intake", "triage").check(front);
  }

  @Test
  void brokerSeesOnlyPipeAndTriage() {
    STAGES.mayOnlySee("broker", "pipe", "triage").check(front);
  }

  @Test
  void theCoreStageInterfacesAreImplementedInTheirStagePackages() {
    STAGES.coreStagesImplementedInTheirPackages().check(front);
  }

  @Test
  void stagePackagesHaveNoCycles() {
    STAGES.freeOfCycles().check(front.that(resideOutsideOfPackage(BASE + ".config..")));
  }

  @Test
  void onlyConfigDeclaresSpringConfiguration() {
    STAGES.configurationOnlyInConfig().check(front);
    STAGES.beansOnlyInConfig().check(front);
  }
}
