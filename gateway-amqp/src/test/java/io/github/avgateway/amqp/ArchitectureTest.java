package io.github.avgateway.amqp;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import io.github.avgateway.core.testing.StageRule;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The AMQP front-end is split by stage (docs/architecture.md, "Vocabulary"), and each stage package
 * sees only what it must:
 *
 * <ul>
 *   <li>{@code triage} (request mapping, the triage, the reply-destination policy): nothing else of
 *       the front-end; it decides from the delivered message alone.
 *   <li>{@code reply} (building and publishing replies, dead-letters and forwards with confirms):
 *       {@code triage} only, whose request mapper reads the ids a dead-letter keeps.
 *   <li>{@code pipe} (the clean-pipe forward): {@code reply} and {@code triage}, the messages it
 *       publishes and the decision it carries out.
 *   <li>{@code history} (history stream, buffer, backlog, probe and indexer): {@code reply} only,
 *       whose publisher carries the history messages with confirms.
 *   <li>{@code intake} (listener containers' batches, acknowledgement, the intake hold, the batch's
 *       history hand-off): {@code triage}, {@code reply} and {@code pipe}, the stages a batch runs
 *       through; the history stream only through core's {@code HistoryStream}.
 * </ul>
 *
 * <p>No stage sees {@code config} or {@code client}, the stage packages have no cycle, and only
 * {@code config} declares Spring configuration (auto-configuration, {@code @Bean} methods, bound
 * properties).
 */
class ArchitectureTest {

  private static final String BASE = "io.github.avgateway.amqp";

  private static final StageRule STAGES =
      new StageRule(BASE, List.of("intake", "triage", "reply", "pipe", "history"));

  private final JavaClasses front =
      new ClassFileImporter()
          .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
          .importPackages(BASE);

  @Test
  void triageSeesNoOtherStage() {
    STAGES.mayOnlySee("triage").check(front);
  }

  @Test
  void replySeesOnlyTriage() {
    STAGES.mayOnlySee("reply", "triage").check(front);
  }

  @Test
  void pipeSeesOnlyReplyAndTriage() {
    STAGES.mayOnlySee("pipe", "reply", "triage").check(front);
  }

  @Test
  void historySeesOnlyReply() {
    STAGES.mayOnlySee("history", "reply").check(front);
  }

  @Test
  void intakeSeesTheStagesABatchRunsThroughButNotHistory() {
    STAGES.mayOnlySee("intake", "triage", "reply", "pipe").check(front);
  }

  @Test
  void theCoreStageInterfacesAreImplementedInTheirStagePackages() {
    STAGES.coreStagesImplementedInTheirPackages().check(front);
  }

  @Test
  void stagePackagesHaveNoCycles() {
    STAGES.freeOfCycles().check(front);
  }

  @Test
  void onlyConfigDeclaresSpringConfiguration() {
    STAGES.configurationOnlyInConfig().check(front);
    STAGES.beansOnlyInConfig().check(front);
  }
}
