package dev.adk4j.server;

import static dev.adk4j.server.ServerClient.json;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.Keys;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The ADK web dev UI, served by {@link AdkServer} at {@code /dev-ui/}, driven end to end in the
 * system's headless Chromium through its ChromeDriver (Debian's {@code chromium} and {@code
 * chromium-driver}; {@code .ci/run} installs them). Without them on the {@code PATH} the test is
 * skipped, saying so.
 *
 * <p>A person's path through the UI: pick the app, send a message (the UI creates the session), see
 * the scripted model's reply and the state it wrote, edit the state in the UI's "Update state"
 * dialog (this UI sends the edit with the next message, as the run's {@code stateDelta}; it does
 * not call {@code PATCH}), and find the edit stored: in the page after a reload, and read back over
 * REST from the SQLite store, recorded on the user's event. The page is saved as {@code
 * adk-server/target/dev-ui.png} (and {@code docs/dev-ui.png}, see {@link #saveScreenshot}); on a
 * failure the screenshot and page source go under {@code adk-server/target/dev-ui-failure/}.
 *
 * <p>Elements are found by what a person sees or a screen reader reads (texts, placeholders, {@code
 * aria-label}s, tooltips, roles, the ARIA tab list), not by Angular's generated classes.
 */
class DevUiBrowserTest extends DevUiBrowserBase {
  @Override
  String storeUrl(Path dir) {
    return "jdbc:sqlite:" + dir.resolve("server.db");
  }

  @Test
  void picksAnAppChatsAndEditsStateStoredInTheDatabase() throws IOException {
    try {
      // Pick the app in the app selector: it lists the server's apps.
      openApp();

      // Send a message: the UI creates the session, then runs the agent.
      // The scripted reply, and the state change the event carries.
      WebElement input = sendNameAndAwaitGreeting("Ada");
      WebElement stateChip =
          wait.until(
              ExpectedConditions.visibilityOfElementLocated(
                  By.xpath("//app-chat-panel//button[contains(normalize-space(), 'State:')]")));
      assertThat(stateChip.getText()).contains("last_greeting");

      // The session the UI created is the one stored, with the state the run wrote.
      wait.until(ExpectedConditions.urlContains("session="));
      String sessionId = queryParam(driver.getCurrentUrl(), "session");
      String sessionPath = "/apps/" + APP + "/users/user/sessions/" + sessionId;
      JsonNode stored = json(client.get(sessionPath));
      assertThat(stored.path("state").path("last_greeting").asText()).isEqualTo("Hello, Ada!");
      JsonNode listed = json(client.get("/apps/" + APP + "/users/user/sessions"));
      assertThat(listed).hasSize(1);
      assertThat(listed.get(0).get("id").asText()).isEqualTo(sessionId);

      // The Traces view: the run's spans (the server keeps them: --traces), the model call among
      // them; the model event's request and response, and the app's graph.
      tracesAndGraphOfTheGreeting("Ada");

      // The State tab shows it.
      click(By.xpath("//div[@role='tab'][normalize-space()='State']"));
      waitForState("last_greeting: \"Hello, Ada!\"");

      // Edit the state in the UI: More options > Update state, a JSON editor.
      click(By.xpath("//app-chat-panel//button[contains(@class, 'input-prefix-menu-btn')]"));
      click(By.xpath("//*[@role='menuitem'][contains(normalize-space(), 'Update state')]"));
      WebElement editor =
          wait.until(
              ExpectedConditions.elementToBeClickable(
                  By.cssSelector("[role='dialog'] [role='textbox'][contenteditable='true']")));
      assertThat(editor.getText()).contains("\"last_greeting\"").contains("\"Hello, Ada!\"");
      editor.click();
      editor.sendKeys(Keys.chord(Keys.CONTROL, "a"));
      editor.sendKeys(Keys.DELETE);
      // Typed as a person would; the editor closes brackets and quotes, and typing the closing
      // one steps over it, so the text ends up as typed (checked below).
      String edited =
          "{\"__session_metadata__\": {\"displayName\": \"Ada\"}, "
              + "\"last_greeting\": \"Edited in the browser\", \"color\": \"green\"}";
      editor.sendKeys(edited);
      assertThat(ServerClient.JSON.readTree(editor.getText()))
          .as("the editor's text")
          .isEqualTo(ServerClient.JSON.readTree(edited));
      // Leaving the editor hands its text to the dialog (the editor reports changes lazily).
      driver
          .findElement(By.xpath("//*[@role='dialog']//h2[normalize-space()='Update state']"))
          .click();
      click(By.xpath("//*[@role='dialog']//button[normalize-space()='Save']"));
      wait.until(
          ExpectedConditions.invisibilityOfElementLocated(By.cssSelector("[role='dialog']")));

      // This UI sends a state edit with the next message (the run's stateDelta), not at once:
      // it shows it as pending beside the input.
      wait.until(
          ExpectedConditions.visibilityOfElementLocated(
              By.xpath("//app-chat-panel//*[normalize-space(text())='Updated session state']")));
      input.sendKeys("Bob");
      input.sendKeys(Keys.ENTER);
      wait.until(
          ExpectedConditions.visibilityOfElementLocated(
              By.xpath("//app-chat-panel//p[normalize-space()='Hello, Bob!']")));

      // ... and the database has it: the user's event carries the edit as its stateDelta.
      JsonNode after = json(client.get(sessionPath));
      assertThat(after.path("state").path("color").asText()).isEqualTo("green");
      assertThat(after.path("state").path("last_greeting").asText()).isEqualTo("Hello, Bob!");
      JsonNode edit = null;
      for (JsonNode event : after.path("events")) {
        if (event.path("actions").path("stateDelta").has("color")) {
          edit = event;
        }
      }
      assertThat(edit).as("the event that stored the edit, in %s", after).isNotNull();
      assertThat(edit.path("author").asText()).isEqualTo("user");
      assertThat(edit.path("content").path("parts").get(0).path("text").asText()).isEqualTo("Bob");
      assertThat(edit.path("actions").path("stateDelta").path("last_greeting").asText())
          .isEqualTo("Edited in the browser");

      // The page shows the edit; reloaded, it shows the stored state, in which the agent has
      // since written last_greeting again (the view keeps the edited value until it reloads).
      click(By.xpath("//div[@role='tab'][normalize-space()='State']"));
      waitForState("color: \"green\"");
      driver.navigate().refresh();
      wait.until(
          ExpectedConditions.visibilityOfElementLocated(
              By.xpath("//app-chat-panel//p[normalize-space()='Hello, Bob!']")));
      click(By.xpath("//div[@role='tab'][normalize-space()='State']"));
      waitForState("last_greeting: \"Hello, Bob!\"");
      waitForState("color: \"green\"");

      // The Evals tab: create an eval set, add this session to it as a case, run it; the case
      // passes (the scripted agent answers as it did) and the result is stored. (Before the upload
      // below: a case holding a 4 MiB file would only make the server and the page parse and copy
      // it again at each step of the eval.)
      evalTabRunsTheSession("ui_set", "ui_case");

      // Attach a file over 4 MiB (the old body limit) and send it: stored whole.
      byte[] file = new byte[(4 << 20) + 123_457];
      new java.util.Random(11).nextBytes(file);
      Path upload = Files.write(dir.resolve("report.bin"), file);
      driver.findElement(By.cssSelector("input[type='file']")).sendKeys(upload.toString());
      WebElement reloadedInput = // the page was reloaded: a new text area
          wait.until(
              ExpectedConditions.elementToBeClickable(
                  By.cssSelector("textarea[placeholder='Type a message...']")));
      reloadedInput.sendKeys("Eve");
      reloadedInput.sendKeys(Keys.ENTER);
      new WebDriverWait(driver, Duration.ofSeconds(60))
          .until(
              ExpectedConditions.visibilityOfElementLocated(
                  By.xpath("//app-chat-panel//p[normalize-space()='Hello, Eve!']")));
      JsonNode withFile = json(client.get(sessionPath));
      String data = null;
      for (JsonNode event : withFile.path("events")) {
        for (JsonNode part : event.path("content").path("parts")) {
          if (part.has("inlineData")) {
            data = part.path("inlineData").path("data").asText();
          }
        }
      }
      assertThat(data).as("the uploaded file in the stored events").isNotNull();
      assertThat(java.util.Base64.getMimeDecoder().decode(data)).isEqualTo(file);

      // Import an exported session in the session selector: a new session with its events.
      JsonNode imported = importSession("Imported answer");
      assertThat(imported.path("events")).hasSize(2);
      assertThat(imported.at("/events/1/author").asText()).isEqualTo("greeter");
      assertThat(imported.at("/events/1/content/parts/0/text").asText())
          .isEqualTo("Imported answer");

      // A confirmation given in the UI resumes the paused invocation.
      confirmInTheUi();

      // No request of the page to this server failed (the console logs each failed one).
      assertNoFailedRequests();

      saveScreenshot();
    } catch (AssertionError | RuntimeException e) {
      saveFailure();
      throw e;
    }
  }
}
