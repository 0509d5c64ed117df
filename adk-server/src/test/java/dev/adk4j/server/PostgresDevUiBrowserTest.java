package dev.adk4j.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.adk4j.sessions.EmbeddedPostgresExtension;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.openqa.selenium.By;
import org.openqa.selenium.support.ui.ExpectedConditions;

/**
 * The dev UI's Evals tab in headless Chromium on a server keeping sessions, eval sets and results
 * in PostgreSQL (the module's one embedded server, a database of its own): a message makes a
 * session, the tab makes it a case of a new eval set and runs it, and the result it shows as passed
 * is the row stored in PostgreSQL; the message's trace and graph views on the way. {@link
 * DevUiBrowserTest} walks the whole UI on SQLite; this is its eval part on the other database (the
 * import and the confirmation are covered on PostgreSQL by {@code SessionImportTest} and the
 * runner's tests). Skipped, as that one, without Chromium and its ChromeDriver.
 */
class PostgresDevUiBrowserTest extends DevUiBrowserBase {
  @RegisterExtension
  static final EmbeddedPostgresExtension POSTGRES = new EmbeddedPostgresExtension();

  private String url;

  @Override
  String storeUrl(Path dir) throws Exception {
    url = POSTGRES.newMigratedDatabase();
    return url;
  }

  @Test
  void evalTabRunsTheSessionAsACase_resultStoredInPostgres() throws Exception {
    try {
      openApp();
      sendNameAndAwaitGreeting("Ada");
      tracesAndGraphOfTheGreeting("Ada");
      wait.until(ExpectedConditions.urlContains("session="));
      // the Evals tab shows its content on a page opened on the session (as after a reload)
      driver.navigate().refresh();
      wait.until(
          ExpectedConditions.visibilityOfElementLocated(
              By.xpath("//app-chat-panel//p[normalize-space()='Hello, Ada!']")));

      JsonNode result = evalTabRunsTheSession("pg_set", "pg_case");

      // the result the tab showed is the row in PostgreSQL, with the case that passed
      String id = result.get("evalSetResultId").asText();
      try (Connection c = DriverManager.getConnection(url);
          PreparedStatement s =
              c.prepareStatement(
                  "SELECT eval_set_id, body FROM adk_eval_results"
                      + " WHERE app_name = ? AND eval_result_id = ?")) {
        s.setString(1, APP);
        s.setString(2, id);
        try (ResultSet rs = s.executeQuery()) {
          assertThat(rs.next()).as("the row of eval result %s", id).isTrue();
          assertThat(rs.getString(1)).isEqualTo("pg_set");
          JsonNode body = ServerClient.JSON.readTree(rs.getString(2));
          assertThat(body.at("/eval_case_results/0/eval_id").asText()).isEqualTo("pg_case");
          assertThat(body.at("/eval_case_results/0/final_eval_status").asInt()).isEqualTo(1);
          assertThat(rs.next()).isFalse();
        }
      }
      assertNoFailedRequests();
    } catch (AssertionError | RuntimeException e) {
      saveFailure();
      throw e;
    }
  }
}
