package dev.adk4j.sessions;

import java.time.Duration;

/**
 * A child JVM of the lease tests: takes the lease of one session with a one-minute lease duration,
 * prints {@code HELD <owner>}, and keeps it (renewing it) until it is killed.
 *
 * <p>Arguments: JDBC URL, app, user, session id.
 */
public final class LeaseHolder {
  private LeaseHolder() {}

  public static void main(String[] args) throws InterruptedException {
    DatabaseSessionConfig config =
        DatabaseSessionConfig.builder().leaseDuration(Duration.ofMinutes(1)).build();
    DatabaseSessionService service = new DatabaseSessionService(args[0], config);
    SessionLease lease =
        service.acquireLease(args[1], args[2], args[3], Duration.ofSeconds(30)).blockingGet();
    System.out.println("HELD " + lease.owner());
    System.out.flush();
    Thread.sleep(Long.MAX_VALUE);
  }
}
