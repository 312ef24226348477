package io.github.avgateway.core;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/**
 * The dependency rule (docs/architecture.md, "The dependency rule"): the core speaks only its own
 * language.
 */
class ArchitectureTest {

  private final JavaClasses core =
      new ClassFileImporter()
          .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
          .importPackages("io.github.avgateway.core");

  @Test
  void coreUsesNoBrokerOrSolrTypes() {
    noClasses()
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(
            "org.springframework.amqp..",
            "org.springframework.jms..",
            "com.rabbitmq..",
            "jakarta.jms..",
            "javax.jms..",
            "org.apache.activemq..",
            "org.apache.solr..")
        .check(core);
  }

  @Test
  void springOnlyInTheConfigPackage() {
    noClasses()
        .that()
        .resideOutsideOfPackage("io.github.avgateway.core.config..")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage("org.springframework..", "jakarta.validation..")
        .check(core);
  }

  /** Request tracing speaks Micrometer Tracing; Brave and Zipkin's reporter only in trace.brave. */
  @Test
  void braveAndZipkinOnlyInTheirOwnPackageAndTheConfig() {
    noClasses()
        .that()
        .resideOutsideOfPackages(
            "io.github.avgateway.core.trace.brave..", "io.github.avgateway.core.config..")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage("brave..", "zipkin2..")
        .check(core);
  }

  @Test
  void modelDependsOnNothingElseInTheCore() {
    noClasses()
        .that()
        .resideInAPackage("io.github.avgateway.core.model..")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(
            "io.github.avgateway.core.pipeline..",
            "io.github.avgateway.core.clamd..",
            "io.github.avgateway.core.config..")
        .check(core);
  }
}
