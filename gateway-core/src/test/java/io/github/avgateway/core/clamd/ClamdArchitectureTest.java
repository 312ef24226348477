package io.github.avgateway.core.clamd;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

class ClamdArchitectureTest {

  @Test
  void theClamdClientUsesNoSpring() {
    noClasses()
        .that()
        .resideInAPackage("io.github.avgateway.core.clamd..")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage("org.springframework..", "jakarta.validation..")
        .because("Spring stays in the config package")
        .check(
            new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("io.github.avgateway.core.clamd"));
  }
}
