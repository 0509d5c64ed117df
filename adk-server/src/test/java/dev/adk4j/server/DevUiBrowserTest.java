package dev.adk4j.server;

import static dev.adk4j.server.ServerClient.json;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.adk4j.agents.LlmAgent;
import dev.adk4j.testing.ScriptedLlm;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.logging.Level;
import java.util.logging.Logger;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.Keys;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
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
class DevUiBrowserTest {
  private static final Duration WAIT = Duration.ofSeconds(60);
  private static final String APP = "greeting_app";

  // Selenium warns on JUL when its CDP bindings trail the browser's version (no CDP is used).
  private static final Logger SELENIUM_LOG = Logger.getLogger("org.openqa.selenium");

  @TempDir Path dir;

  private AdkServer server;
  private ServerClient client;
  private WebDriver driver;
  private WebDriverWait wait;

  @BeforeEach
  void start() {
    Path chromium = onPath("chromium", "chromium-browser", "google-chrome").orElse(null);
    Path chromedriver = onPath("chromedriver").orElse(null);
    Assumptions.assumeTrue(
        chromium != null && chromedriver != null,
        "dev UI browser test skipped: needs Chromium and its ChromeDriver on the PATH"
            + " (Debian: apt-get install chromium chromium-driver; .ci/run does it); found"
            + " chromium="
            + chromium
            + ", chromedriver="
            + chromedriver);

    LlmAgent greeter =
        LlmAgent.builder()
            .name("greeter")
            .description("greets")
            .model(
                ScriptedLlm.answering(
                    req -> ScriptedLlm.textResponse("Hello, " + ScriptedLlm.userText(req) + "!")))
            .outputKey("last_greeting")
            .build();
    LlmAgent other =
        LlmAgent.builder()
            .name("other")
            .model(ScriptedLlm.answering(req -> ScriptedLlm.textResponse("other")))
            .build();
    server =
        AdkServer.builder()
            .app(APP, greeter)
            .app("other_app", other)
            .store("jdbc:sqlite:" + dir.resolve("server.db"))
            .traces(true)
            .port(0)
            .start();
    client = new ServerClient(server);

    SELENIUM_LOG.setLevel(Level.SEVERE);
    ChromeOptions options = new ChromeOptions();
    options.setBinary(chromium.toFile());
    options.addArguments(
        "--headless=new",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--no-first-run",
        "--no-default-browser-check",
        "--disable-background-networking",
        "--disable-extensions",
        "--user-data-dir=" + dir.resolve("chromium-profile"),
        "--window-size=1400,900");
    // the page's console, read at the end: no request to this server may fail
    options.setCapability("goog:loggingPrefs", java.util.Map.of("browser", "ALL"));
    // The driver binary given explicitly: Selenium Manager (which would download one) stays idle.
    ChromeDriverService service =
        new ChromeDriverService.Builder()
            .usingDriverExecutable(chromedriver.toFile())
            .usingAnyFreePort()
            .build();
    driver = new ChromeDriver(service, options);
    wait = new WebDriverWait(driver, WAIT);
  }

  @AfterEach
  void stop() {
    if (driver != null) {
      driver.quit();
    }
    if (server != null) {
      server.close();
    }
  }

  @Test
  void picksAnAppChatsAndEditsStateStoredInTheDatabase() throws IOException {
    try {
      driver.get(server.url().resolve("/dev-ui/").toString());

      // Pick the app in the app selector: it lists the server's apps.
      click(By.cssSelector("[mattooltip='Select an app']"));
      WebElement appItem =
          wait.until(ExpectedConditions.elementToBeClickable(byExactText(APP, "mat-drawer")));
      assertThat(driver.findElements(byExactText("other_app", "mat-drawer"))).hasSize(1);
      appItem.click();
      wait.until(ExpectedConditions.urlContains("app=" + APP));

      // Send a message: the UI creates the session, then runs the agent.
      WebElement input =
          wait.until(
              ExpectedConditions.elementToBeClickable(
                  By.cssSelector("textarea[placeholder='Type a message...']")));
      input.sendKeys("Ada");
      input.sendKeys(Keys.ENTER);

      // The scripted reply, and the state change the event carries.
      wait.until(
          ExpectedConditions.visibilityOfElementLocated(
              By.xpath("//app-chat-panel//p[normalize-space()='Hello, Ada!']")));
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
      // them; then back to the events.
      click(By.xpath("//mat-button-toggle[normalize-space()='Traces']//button"));
      wait.withMessage(() -> "a trace tree showing the run's model call")
          .until(
              d -> {
                for (WebElement tree : d.findElements(By.tagName("app-trace-tree"))) {
                  if (tree.isDisplayed() && tree.getText().contains("call_llm")) {
                    return tree;
                  }
                }
                return null;
              });
      click(By.xpath("//mat-button-toggle[normalize-space()='Events']//button"));

      // The State tab shows it.
      click(By.xpath("//div[@role='tab'][normalize-space()='State']"));
      waitForState("last_greeting: \"Hello, Ada!\"");

      // Edit the state in the UI: More options > Update state, a JSON editor.
      click(By.xpath("//app-chat-panel//button[.//mat-icon[normalize-space()='more_vert']]"));
      click(By.xpath("//*[@role='menuitem'][normalize-space()='Update state']"));
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

      // The Evals tab: create an eval set, add this session to it as a case, run it; the case
      // passes (the scripted agent answers as it did) and the result is stored.
      click(By.xpath("//div[@role='tab'][normalize-space()='Evals']"));
      click(By.xpath("//app-eval-tab//div[normalize-space()='Create Evaluation Set']"));
      WebElement setName =
          wait.until(
              ExpectedConditions.elementToBeClickable(By.xpath("//mat-dialog-container//input")));
      setName.clear();
      setName.sendKeys("ui_set");
      click(By.xpath("//mat-dialog-container//button[normalize-space()='Create']"));
      click(By.xpath("//app-eval-tab//div[normalize-space()='ui_set']"));
      // (a button's text starts with its icon's name: the icon font is not loaded offline)
      click(
          By.xpath("//app-eval-tab//button[contains(normalize-space(), 'From Current Session')]"));
      WebElement caseName =
          wait.until(
              ExpectedConditions.elementToBeClickable(By.xpath("//mat-dialog-container//input")));
      caseName.clear();
      caseName.sendKeys("ui_case");
      click(By.xpath("//mat-dialog-container//button[normalize-space()='Create']"));
      wait.until(
          ExpectedConditions.visibilityOfElementLocated(
              By.xpath("//app-eval-tab//*[normalize-space()='ui_case']")));
      click(By.xpath("//app-eval-tab//button[contains(normalize-space(), 'Run All')]"));
      click(By.xpath("//mat-dialog-container//button[normalize-space()='Start']"));
      new WebDriverWait(driver, Duration.ofSeconds(60))
          .withMessage("the eval run's result in the Evals tab")
          .until(
              d -> {
                String shown = d.findElement(By.tagName("app-eval-tab")).getText();
                return shown.contains("Pass") || shown.contains("PASS") ? shown : null;
              });
      JsonNode results = json(client.get("/apps/" + APP + "/eval_results"));
      assertThat(results).hasSize(1);
      JsonNode result =
          json(client.get("/apps/" + APP + "/eval_results/" + results.get(0).asText()));
      assertThat(result.at("/evalCaseResults/0/evalId").asText()).isEqualTo("ui_case");
      assertThat(result.at("/evalCaseResults/0/finalEvalStatus").asInt()).isEqualTo(1);

      // No request of the page to this server failed (the console logs each failed one).
      String self = server.url().getAuthority();
      java.util.List<String> failed = new java.util.ArrayList<>();
      for (org.openqa.selenium.logging.LogEntry entry :
          driver.manage().logs().get(org.openqa.selenium.logging.LogType.BROWSER)) {
        if (entry.getLevel().intValue() >= Level.SEVERE.intValue()
            && entry.getMessage().contains(self)) {
          failed.add(entry.getMessage());
        }
      }
      assertThat(failed).as("console errors about this server's requests").isEmpty();

      saveScreenshot();
    } catch (AssertionError | RuntimeException e) {
      saveFailure();
      throw e;
    }
  }

  /** Waits until the State tab's view contains {@code text} ("key: value" as it shows it). */
  private void waitForState(String text) {
    wait.withMessage(() -> "state view showing " + text)
        .until(
            d -> {
              String shown = d.findElement(By.tagName("app-state-tab")).getText();
              return shown.replaceAll("\\s+", " ").contains(text) ? shown : null;
            });
  }

  private void click(By by) {
    wait.until(ExpectedConditions.elementToBeClickable(by)).click();
  }

  /** An element under {@code within} whose own text is exactly {@code text}. */
  private static By byExactText(String text, String within) {
    return By.xpath("//" + within + "//*[normalize-space(text())='" + text + "']");
  }

  private static String queryParam(String url, String name) {
    for (String pair : url.substring(url.indexOf('?') + 1).split("&")) {
      if (pair.startsWith(name + "=")) {
        return pair.substring(name.length() + 1);
      }
    }
    throw new AssertionError("no " + name + " in " + url);
  }

  /**
   * Saves the page as {@code target/dev-ui.png}, and as the project's {@code docs/dev-ui.png} when
   * that file is missing or {@code -Dadk4j.devui.updateScreenshot=true} is given: the committed
   * picture changes only when someone means to change it, not on every build.
   */
  private void saveScreenshot() throws IOException {
    byte[] png = ((ChromeDriver) driver).getScreenshotAs(OutputType.BYTES);
    Files.write(Path.of("target", "dev-ui.png"), png);
    Path docs = Path.of("..", "docs");
    Path committed = docs.resolve("dev-ui.png");
    if (Files.isDirectory(docs)
        && (!Files.exists(committed) || Boolean.getBoolean("adk4j.devui.updateScreenshot"))) {
      Files.write(committed, png);
    }
  }

  private void saveFailure() {
    try {
      Path out = Files.createDirectories(Path.of("target", "dev-ui-failure"));
      Files.write(
          out.resolve("page.png"), ((ChromeDriver) driver).getScreenshotAs(OutputType.BYTES));
      Files.writeString(out.resolve("page.html"), driver.getPageSource());
      System.err.println(
          "DevUiBrowserTest failed at "
              + driver.getCurrentUrl()
              + "; screenshot and page source in "
              + out.toAbsolutePath());
    } catch (IOException | RuntimeException e) {
      System.err.println("DevUiBrowserTest: could not save the failed page: " + e);
    }
  }

  /** The first of {@code names} found as an executable on the {@code PATH}. */
  private static Optional<Path> onPath(String... names) {
    String path = System.getenv("PATH");
    if (path == null) {
      return Optional.empty();
    }
    return Stream.of(names)
        .flatMap(
            name ->
                Stream.of(path.split(File.pathSeparator))
                    .filter(d -> !d.isEmpty())
                    .map(d -> Path.of(d, name)))
        .filter(Files::isExecutable)
        .findFirst();
  }
}
