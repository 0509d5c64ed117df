package dev.adk4j.spring;

import dev.adk4j.sessions.BaseSessionService;
import dev.adk4j.sessions.DatabaseSessionService;
import dev.adk4j.sessions.LeaseStats;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import org.springframework.boot.health.contributor.AbstractHealthIndicator;
import org.springframework.boot.health.contributor.Health;

/**
 * {@code adk4j} in the actuator's health: UP when the session store answers a read (a lookup of a
 * session that does not exist, one indexed query), DOWN with the failure otherwise. Details: the
 * backend, the schema (migrated or validated when the service started: it does not start on a
 * schema it cannot use), the turns in flight and, for a database, the session leases (held,
 * renewals, late, failed rounds, lost). DOWN also while the latest lease renewal failed or was late
 * (less than a third of the lease left): another instance could then take over a running turn.
 */
final class SessionStoreHealthIndicator extends AbstractHealthIndicator {
  static final String PROBE_APP = "adk4j-health";

  private final BaseSessionService sessions;
  private final TurnTracker turns;
  private final boolean migrate;

  SessionStoreHealthIndicator(BaseSessionService sessions, TurnTracker turns, boolean migrate) {
    super("adk4j session store health check failed");
    this.sessions = sessions;
    this.turns = turns;
    this.migrate = migrate;
  }

  @Override
  protected void doHealthCheck(Health.Builder builder) {
    sessions.getSession(PROBE_APP, "probe", "probe", Optional.empty()).blockingGet();
    builder.up().withDetail("backend", backendOf(sessions));
    if (sessions instanceof DatabaseSessionService db) {
      builder.withDetail(
          "schema",
          migrate
              ? "migrated at start"
              : "validated at start (migrations managed by the application)");
      LeaseStats leases = db.leaseStats();
      builder.withDetail("leases", leaseDetails(leases));
      if (!leases.lastRoundOnTime()) {
        builder
            .down()
            .withDetail(
                "leaseRenewal",
                "the latest renewal of the "
                    + leases.held()
                    + " held session leases failed or came with less than a third of the lease"
                    + " ("
                    + leases.leaseDuration().toMillis()
                    + " ms) left: another instance may take them over");
      }
    }
    builder.withDetail("turnsInFlight", turns.inFlight().size());
  }

  private static Map<String, Object> leaseDetails(LeaseStats s) {
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("held", s.held());
    out.put("renewals", s.renewals());
    out.put("lateRenewals", s.lateRenewals());
    out.put("failedRounds", s.failedRounds());
    out.put("lost", s.lostLeases());
    out.put("onTime", s.lastRoundOnTime());
    out.put("leaseDuration", s.leaseDuration().toString());
    return out;
  }

  /** The session store's name: the database product, {@code memory}, or the service's class. */
  static String backendOf(BaseSessionService sessions) {
    if (sessions instanceof DatabaseSessionService db) {
      return db.databaseProduct();
    }
    if (sessions instanceof dev.adk4j.sessions.InMemorySessionService) {
      return "memory";
    }
    return sessions.getClass().getSimpleName();
  }
}
