package io.github.avgateway.core.testing;

import static com.tngtech.archunit.base.DescribedPredicate.not;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.belongToAnyOf;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAnyPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noMethods;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.CompositeArchRule;
import io.github.avgateway.core.history.HistoryStream;
import io.github.avgateway.core.transport.IntakeHold;
import io.github.avgateway.core.transport.ReplyDestinationPolicy;
import io.github.avgateway.core.transport.RequestTriage;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * The stage packages of a front-end (docs/architecture.md, "Vocabulary") and the rule that one of
 * them sees only the stages it names: no dependency on another stage package, nor on the
 * front-end's {@code config} (except its bound properties, {@code settings}) and {@code client}
 * packages. Shared by the front-ends' {@code ArchitectureTest}s.
 *
 * @param base the front-end's package
 * @param stages its stage packages, relative to {@code base}
 * @param settings the classes of {@code config} a stage may read (its properties records)
 */
public record StageRule(String base, List<String> stages, Class<?>... settings) {

  /** The rule: classes of {@code stage} depend on no front-end package but {@code allowed}. */
  public ArchRule mayOnlySee(String stage, String... allowed) {
    Set<String> seen = Set.of(allowed);
    List<String> forbidden = new ArrayList<>();
    for (String other : stages) {
      if (!other.equals(stage) && !seen.contains(other)) {
        forbidden.add(base + "." + other + "..");
      }
    }
    forbidden.add(base + ".config..");
    forbidden.add(base + ".client..");
    return noClasses()
        .that()
        .resideInAPackage(base + "." + stage + "..")
        .should()
        .dependOnClassesThat(
            resideInAnyPackage(forbidden.toArray(String[]::new)).and(not(belongToAnyOf(settings))))
        .because(stage + " may see " + (seen.isEmpty() ? "only the core" : seen + " and the core"));
  }

  /** The rule: the stage packages (every subpackage of {@code base}) have no cycle. */
  public ArchRule freeOfCycles() {
    return slices().matching(base + ".(*)..").should().beFreeOfCycles();
  }

  /**
   * The rule: only {@code config} declares Spring configuration (auto-configuration, configuration
   * classes, bound or enabled properties); the stages are plain classes it builds.
   */
  public ArchRule configurationOnlyInConfig() {
    return noClasses()
        .that()
        .resideOutsideOfPackage(base + ".config..")
        .should()
        .beAnnotatedWith("org.springframework.boot.autoconfigure.AutoConfiguration")
        .orShould()
        .beAnnotatedWith("org.springframework.context.annotation.Configuration")
        .orShould()
        .beAnnotatedWith("org.springframework.boot.context.properties.ConfigurationProperties")
        .orShould()
        .beAnnotatedWith(
            "org.springframework.boot.context.properties.EnableConfigurationProperties");
  }

  /** The rule: only {@code config} has {@code @Bean} methods. */
  public ArchRule beansOnlyInConfig() {
    return noMethods()
        .that()
        .areDeclaredInClassesThat()
        .resideOutsideOfPackage(base + ".config..")
        .should()
        .beAnnotatedWith("org.springframework.context.annotation.Bean");
  }

  /**
   * The rule: the front-end implements the core stage {@code spi} (a {@code core.transport} or
   * {@code core.history} interface), and only in its stage package {@code stage}. Fails when
   * nothing implements it (an empty rule fails).
   */
  public ArchRule implementsIn(String stage, Class<?> spi) {
    return classes()
        .that()
        .implement(spi)
        .should()
        .resideInAPackage(base + "." + stage + "..")
        .allowEmptyShould(false)
        .because(spi.getSimpleName() + " is the " + stage + " stage's, defined once in the core");
  }

  /**
   * The rule: each core stage interface a front-end implements (the triage, the reply-destination
   * policy, the intake hold, the history hand-off) is implemented in its stage package.
   */
  public ArchRule coreStagesImplementedInTheirPackages() {
    return CompositeArchRule.of(implementsIn("triage", RequestTriage.class))
        .and(implementsIn("triage", ReplyDestinationPolicy.class))
        .and(implementsIn("intake", IntakeHold.class))
        .and(implementsIn("history", HistoryStream.class));
  }
}
