package io.github.avgateway.core.contract;

import io.github.avgateway.core.testing.TcpProxy;

/**
 * What the broker-fault contract ({@link AbstractBrokerFaultContractTests}) needs from one
 * front-end's fault rig: its broker, killable and restartable on its own data, behind a {@link
 * TcpProxy} between it and the gateway, and a second gateway on the same request queue. The callers
 * of the rig's fault client talk to the broker directly.
 */
public interface BrokerFaultDriver {

  /** Starts a run of {@code scenario}. */
  FaultDriver.Run run(String scenario);

  /**
   * Kills the broker ({@code SIGKILL}), starts it again on its own data and waits until the gateway
   * consumes from it again.
   */
  void killAndRestartBroker() throws Exception;

  /** The proxy between the gateway and the broker. */
  TcpProxy brokerProxy();

  /**
   * With {@link #brokerProxy()} frozen (no FIN: only heartbeats or a connection TTL tell), waits
   * (bounded) until one side noticed the frozen connections are dead: the broker dropped the
   * gateway's consumers, or the gateway opened new connections. {@code run} may send more load
   * meanwhile, which is how some gateways notice.
   */
  void awaitHalfOpenNoticed(FaultDriver.Run run) throws Exception;

  /** Starts a second gateway on the same request queue and waits until it consumes. */
  void startSecondGateway() throws Exception;

  /** Kills ({@code SIGKILL}) one of the two gateways; the other one must take its requests over. */
  void killOneOfTwoGateways() throws Exception;
}
