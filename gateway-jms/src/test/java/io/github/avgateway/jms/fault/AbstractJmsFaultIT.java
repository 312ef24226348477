package io.github.avgateway.jms.fault;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * Base of the JMS fault scenarios (issue 8): every scenario runs load through the shared {@link
 * FaultEnvironment}, injects one real fault, heals it, and checks the run with the shared checker
 * ({@code FaultLedger}). Each scenario starts with every dependency serving and leaves it so.
 */
@ExtendWith(AbstractJmsFaultIT.Environment.class)
abstract class AbstractJmsFaultIT {

  FaultEnvironment env;

  @BeforeEach
  void everythingServes(FaultEnvironment environment) {
    env = environment;
    env.awaitIntakeOpen();
  }

  /** Resolves {@link FaultEnvironment} parameters with the test run's one environment. */
  static final class Environment implements ParameterResolver {
    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
      return parameter.getParameter().getType() == FaultEnvironment.class;
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
      return FaultEnvironment.get(context);
    }
  }
}
