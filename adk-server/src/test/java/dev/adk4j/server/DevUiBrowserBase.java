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
import java.util.concurrent.atomic.AtomicInteger;
import java.util.logging.Level;
import java.util.logging.Logger;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * What the dev UI browser tests share ({@link DevUiBrowserTest} on SQLite, {@link
 * PostgresDevUiBrowserTest}): a server on the subclass's database ({@link #storeUrl}), the headless
 * browser, and the steps a person takes in the UI. The ADK web dev UI, served by {@link AdkServer}
 * at {@code /dev-ui/}, driven end to end in the system's headless Chromium through its ChromeDriver
 * (Debian's {@code chromium} and {@code chromium-driver}; {@code .ci/run} installs them). Without
 * them on the {@code PATH} the test is skipped, saying so.
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
// Beside the other browser test class and the rest of the module (adk-server-tests'
// junit-platform.properties): each has its own server, database, Chromium and session.
@org.junit.jupiter.api.parallel.Execution(org.junit.jupiter.api.parallel.ExecutionMode.CONCURRENT)
abstract class DevUiBrowserBase {
  static final Duration WAIT = Duration.ofSeconds(60);
  static final String APP = "greeting_app";
  static final String MODEL = "greeting-model";

  // Selenium warns on JUL when its CDP bindings trail the browser's version (no CDP is used).
  private static final Logger SELENIUM_LOG = Logger.getLogger("org.openqa.selenium");

  @TempDir Path dir;

  AdkServer server;
  ServerClient client;
  WebDriver driver;
  WebDriverWait wait;

  /** The JDBC URL of the server's store (sessions, eval sets and results). */
  abstract String storeUrl(Path dir) throws Exception;

  @BeforeEach
  void start() throws Exception {
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

    String bundle = servedBundle();
    Assumptions.assumeTrue(
        bundle.startsWith("@google/adk-devtools"),
        "dev UI browser test skipped: it is written against @google/adk-devtools, and the build"
            + " served "
            + bundle
            + " (no npm when it ran: see docs/server.md)");

    LlmAgent greeter =
        LlmAgent.builder()
            .name("greeter")
            .description("greets")
            .model(
                ScriptedLlm.builder()
                    .model(MODEL)
                    .otherwise(
                        req ->
                            ScriptedLlm.textResponse("Hello, " + ScriptedLlm.userText(req) + "!"))
                    .build())
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
            .app(
                "bank_app",
                LlmAgent.builder()
                    .name("teller")
                    .model(
                        ScriptedLlm.answering(
                            req ->
                                ScriptedLlm.functionResponses(req).isEmpty()
                                    ? ScriptedLlm.functionCallResponse(
                                        "transfer", java.util.Map.of("amount", 5))
                                    : ScriptedLlm.textResponse("sent")))
                    .tools(
                        dev.adk4j.tools.FunctionTool.create(
                            DevUiBrowserBase.class, "transfer", true))
                    .build())
            .store(storeUrl(dir))
            // the UI's session import sends the model's turns of the file
            .clientPolicy(AdkServer.ClientPolicy.defaults().modelContent(true))
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
        "--window-size=1400,900",
        // Less CPU for the same page: animations off where the page honours reduced motion, and V8
        // without its optimising compiler, whose compiles a page used for seconds never pays back
        // (about 2 of the two tests' 27 s of Chromium CPU).
        "--force-prefers-reduced-motion",
        "--js-flags=--no-opt");
    // the page's console, read at the end: no request to this server may fail
    options.setCapability("goog:loggingPrefs", java.util.Map.of("browser", "ALL"));
    // The driver binary given explicitly: Selenium Manager (which would download one) stays idle.
    ChromeDriverService service =
        new ChromeDriverService.Builder()
            .usingDriverExecutable(chromedriver.toFile())
            .usingAnyFreePort()
            .build();
    driver = new ChromeDriver(service, options);
    wait = retryingStale(new WebDriverWait(driver, WAIT));
  }

  /**
   * The bank app's tool, which asks a person to confirm each call; counts the calls it ran and
   * saves a receipt as an artifact (what the UI's Artifacts tab shows).
   */
  public static java.util.Map<String, Object> transfer(
      @dev.adk4j.tools.Annotations.Schema(name = "amount") int amount,
      dev.adk4j.tools.ToolContext toolContext) {
    TRANSFERS.computeIfAbsent(toolContext.sessionId(), k -> new AtomicInteger()).incrementAndGet();
    toolContext
        .saveArtifact(
            "receipt.txt",
            com.google.genai.types.Part.fromBytes(
                ("Transferred " + amount + ".").getBytes(java.nio.charset.StandardCharsets.UTF_8),
                "text/plain"))
        .blockingGet();
    return java.util.Map.of("transferred", amount);
  }

  /** The transfers the tool ran, by session (the browser test classes run at the same time). */
  static final java.util.Map<String, AtomicInteger> TRANSFERS =
      new java.util.concurrent.ConcurrentHashMap<>();

  static int transfers(String session) {
    AtomicInteger n = TRANSFERS.get(session);
    return n == null ? 0 : n.get();
  }

  /**
   * A confirmation resumed from the UI: in the bank app, a message makes the agent call a tool that
   * asks for a confirmation; the UI shows the request with a "Confirmed" box and "Submit"; the
   * answer resumes the paused invocation, the tool runs once (saving a receipt, which the Artifacts
   * tab then shows) and the agent answers. Checked in the page and in the stored session (one
   * invocation).
   */
  void confirmInTheUi() {
    driver.get(server.url().resolve("/dev-ui/?app=bank_app").toString());
    WebElement input =
        wait.until(
            ExpectedConditions.elementToBeClickable(
                By.cssSelector("textarea[placeholder='Type a message...']")));
    input.sendKeys("pay 5");
    input.sendKeys(org.openqa.selenium.Keys.ENTER);
    wait.until(
        ExpectedConditions.elementToBeClickable(
            By.xpath("//app-chat-panel//button[normalize-space()='Submit']")));
    wait.until(ExpectedConditions.urlContains("session="));
    String session = queryParam(driver.getCurrentUrl(), "session");
    assertThat(transfers(session)).as("transfers before the confirmation").isZero();
    click(By.xpath("//app-chat-panel//label[.//span[normalize-space()='Confirmed']]//input"));
    click(By.xpath("//app-chat-panel//button[normalize-space()='Submit']"));
    wait.until(
        ExpectedConditions.visibilityOfElementLocated(
            By.xpath("//app-chat-panel//p[normalize-space()='sent']")));
    assertThat(transfers(session)).as("transfers after the confirmation").isEqualTo(1);
    // The Artifacts tab lists the receipt the tool saved, with its text.
    click(By.xpath("//div[@role='tab'][normalize-space()='Artifacts']"));
    wait.until(
        ExpectedConditions.visibilityOfElementLocated(
            By.xpath("//button[.//span[normalize-space()='receipt.txt']]")));
    wait.until(
        ExpectedConditions.visibilityOfElementLocated(
            By.xpath("//pre[contains(normalize-space(), 'Transferred 5.')]")));
    assertThat(queryParam(driver.getCurrentUrl(), "session")).isEqualTo(session);
    JsonNode stored = json(client.get("/apps/bank_app/users/user/sessions/" + session));
    java.util.Set<String> invocations = new java.util.HashSet<>();
    boolean ran = false;
    for (JsonNode e : stored.path("events")) {
      invocations.add(e.path("invocationId").asText());
      for (JsonNode part : e.path("content").path("parts")) {
        ran |= part.at("/functionResponse/response/transferred").asInt() == 5;
      }
    }
    assertThat(ran).as("the transfer's response in %s", stored).isTrue();
    assertThat(invocations).as("one invocation, paused and resumed").hasSize(1);
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

  /**
   * Sends {@code name} as a chat message (the UI creates the session first if there is none) and
   * waits for the scripted greeting; returns the message input.
   */
  WebElement sendNameAndAwaitGreeting(String name) {
    WebElement input =
        wait.until(
            ExpectedConditions.elementToBeClickable(
                By.cssSelector("textarea[placeholder='Type a message...']")));
    input.sendKeys(name);
    input.sendKeys(org.openqa.selenium.Keys.ENTER);
    wait.until(
        ExpectedConditions.visibilityOfElementLocated(
            By.xpath("//app-chat-panel//p[normalize-space()='Hello, " + name + "!']")));
    return input;
  }

  /**
   * The trace and graph views of the greeting {@code name} just got: the chat's Traces view shows
   * the run's trace tree with its {@code call_llm} span; the model's event, selected, shows in its
   * Request pane what was sent to the model (the model's name and the user's text, from the span's
   * {@code gcp.vertex.agent.llm_request}) and in its Response pane what came back; its Graph pane
   * draws the app's agents (from {@code build_graph_image}). Ends on the Events view.
   */
  void tracesAndGraphOfTheGreeting(String name) {
    click(By.xpath("//mat-button-toggle[normalize-space()='Traces']//button"));
    waitFor("a trace tree showing the run's model call")
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
    click(By.xpath("//app-chat-panel//p[normalize-space()='Hello, " + name + "!']"));
    eventPane("input", "the model request in the event's Request pane", MODEL, "\"" + name + "\"");
    eventPane(
        "output", "the model response in the event's Response pane", "\"Hello, " + name + "!\"");
    click(By.xpath("//app-event-tab//button[.//mat-icon[normalize-space()='account_tree']]"));
    waitFor("the app's graph in the event's Graph pane")
        .until(
            d ->
                d
                    .findElements(
                        By.xpath(
                            "//app-event-tab//*[local-name()='svg']//*[local-name()='text']"
                                + "[normalize-space()='greeter']"))
                    .stream()
                    .anyMatch(WebElement::isDisplayed));
  }

  /** Opens the selected event's pane under the icon {@code icon} and waits for its texts. */
  private void eventPane(String icon, String what, String... texts) {
    click(By.xpath("//app-event-tab//button[.//mat-icon[normalize-space()='" + icon + "']]"));
    waitFor(what)
        .until(
            d -> {
              String shown = d.findElement(By.tagName("app-event-tab")).getText();
              for (String t : texts) {
                if (!shown.contains(t)) {
                  return null;
                }
              }
              return shown;
            });
  }

  /** Opens the dev UI and picks {@link #APP} in the app selector, which lists the server's apps. */
  void openApp() {
    driver.get(server.url().resolve("/dev-ui/").toString());
    click(By.cssSelector("[mattooltip='Select an app']"));
    WebElement appItem =
        wait.until(ExpectedConditions.elementToBeClickable(byExactText(APP, "mat-drawer")));
    assertThat(driver.findElements(byExactText("other_app", "mat-drawer"))).hasSize(1);
    appItem.click();
    wait.until(ExpectedConditions.urlContains("app=" + APP));
  }

  /**
   * The Evals tab: creates the eval set {@code setName}, adds the current session to it as the case
   * {@code caseName}, runs it and waits for the tab to show it passed; answers the stored result
   * (ADK's {@code EvalSetResult}), the only one of the app.
   */
  JsonNode evalTabRunsTheSession(String setName, String caseName) {
    click(By.xpath("//div[@role='tab'][normalize-space()='Evals']"));
    click(By.xpath("//app-eval-tab//div[normalize-space()='Create Evaluation Set']"));
    typeIntoDialog(setName);
    click(By.xpath("//mat-dialog-container//button[normalize-space()='Create']"));
    click(By.xpath("//app-eval-tab//div[normalize-space()='" + setName + "']"));
    // (a button's text starts with its icon's name: the icon font is not loaded offline)
    click(By.xpath("//app-eval-tab//button[contains(normalize-space(), 'From Current Session')]"));
    typeIntoDialog(caseName);
    click(By.xpath("//mat-dialog-container//button[normalize-space()='Create']"));
    wait.until(
        ExpectedConditions.visibilityOfElementLocated(
            By.xpath("//app-eval-tab//*[normalize-space()='" + caseName + "']")));
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
    JsonNode result = json(client.get("/apps/" + APP + "/eval_results/" + results.get(0).asText()));
    assertThat(result.at("/evalCaseResults/0/evalId").asText()).isEqualTo(caseName);
    assertThat(result.at("/evalCaseResults/0/finalEvalStatus").asInt()).isEqualTo(1);
    return result;
  }

  /** Which dev UI bundle the build put on the classpath (its {@code dev-ui.txt}). */
  static String servedBundle() throws IOException {
    try (java.io.InputStream in =
        DevUiBrowserBase.class.getResourceAsStream("/dev/adk4j/server/dev-ui.txt")) {
      return in == null
          ? "no bundle"
          : new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8).trim();
    }
  }

  /**
   * Fails if the page's console logged a failed request to this server. A file under {@code
   * /dev-ui/} that the bundle itself does not ship is the bundle's own gap, not the server's
   * (@google/adk-devtools 2.0.0 links {@code prism-dark.css} and {@code prism-light.css}, its code
   * highlighting themes, without shipping them): those 404s are left out.
   */
  void assertNoFailedRequests() {
    String self = server.url().getAuthority();
    String ui = server.url().resolve("/dev-ui/").toString();
    java.util.List<String> failed = new java.util.ArrayList<>();
    for (org.openqa.selenium.logging.LogEntry entry :
        driver.manage().logs().get(org.openqa.selenium.logging.LogType.BROWSER)) {
      String m = entry.getMessage();
      if (entry.getLevel().intValue() >= Level.SEVERE.intValue() && m.contains(self)) {
        if (m.startsWith(ui)) {
          String file = m.substring(ui.length()).split("[ ?#]", 2)[0];
          if (file.matches("[\\w.-]+\\.css")
              && DevUiBrowserBase.class.getResource("/dev/adk4j/server/browser/" + file) == null) {
            continue;
          }
        }
        failed.add(m);
      }
    }
    assertThat(failed).as("console errors about this server's requests").isEmpty();
  }

  /**
   * The session selector's Import: the UI reads an exported session file (a file chooser it opens
   * from an input element it never attaches to the page; the page's {@code click} on such an input
   * attaches it instead, so that the test can give it the file) and creates a session with its
   * events. Answers the stored session that holds the file's events.
   */
  JsonNode importSession(String answer) throws IOException {
    Path file =
        Files.writeString(
            dir.resolve("exported-session.json"),
            "{\"id\": \"exported\", \"appName\": \""
                + APP
                + "\", \"userId\": \"user\", \"state\": {}, \"events\": ["
                + "{\"id\": \"ev-q\", \"invocationId\": \"inv-old\", \"author\": \"user\","
                + " \"content\": {\"role\": \"user\", \"parts\": [{\"text\": \"Imported question\"}]},"
                + " \"actions\": {\"stateDelta\": {}}, \"timestamp\": 1700000000.5},"
                + "{\"id\": \"ev-a\", \"invocationId\": \"inv-old\", \"author\": \"greeter\","
                + " \"content\": {\"role\": \"model\", \"parts\": [{\"text\": \""
                + answer
                + "\"}]}, \"actions\": {\"stateDelta\": {\"imported\": \"yes\"}},"
                + " \"timestamp\": 1700000001.0}]}");
    ((org.openqa.selenium.JavascriptExecutor) driver)
        .executeScript(
            "const click = HTMLInputElement.prototype.click;"
                + "HTMLInputElement.prototype.click = function () {"
                + "  if (this.type === 'file' && !this.isConnected) {"
                + "    this.id = 'adk4j-picked'; this.style.display = 'none';"
                + "    document.body.appendChild(this); return; }"
                + "  return click.call(this); };");
    click(By.cssSelector("[mattooltip='Select a session']"));
    click(By.xpath("//button[.//span[normalize-space()='Import']]"));
    wait.until(ExpectedConditions.presenceOfElementLocated(By.id("adk4j-picked")))
        .sendKeys(file.toString());
    wait.until(
        ExpectedConditions.visibilityOfElementLocated(
            By.xpath("//app-chat-panel//*[normalize-space()='" + answer + "']")));
    for (JsonNode s : json(client.get("/apps/" + APP + "/users/user/sessions"))) {
      JsonNode full =
          json(client.get("/apps/" + APP + "/users/user/sessions/" + s.get("id").asText()));
      if (full.path("state").path("imported").asText().equals("yes")) {
        return full;
      }
    }
    throw new AssertionError("no stored session holds the imported events");
  }

  /** Waits until the State tab's view contains {@code text} ("key: value" as it shows it). */
  void waitForState(String text) {
    waitFor("state view showing " + text)
        .until(
            d -> {
              // its text as the DOM holds it: the viewer separates key and value with a
              // no-break space, in spans the driver's rendered text may split differently
              Object content =
                  ((org.openqa.selenium.JavascriptExecutor) d)
                      .executeScript(
                          "return arguments[0].textContent",
                          d.findElement(By.tagName("app-state-tab")));
              String shown = String.valueOf(content).replaceAll("[\\s\\u00a0]+", " ");
              return shown.contains(text) ? shown : null;
            });
  }

  void click(By by) {
    wait.until(ExpectedConditions.elementToBeClickable(by)).click();
  }

  /**
   * A wait of its own that names what it waits for when it times out ({@code withMessage} on the
   * shared {@link #wait} would stay on it and name this wait in every later timeout).
   */
  WebDriverWait waitFor(String what) {
    WebDriverWait w = retryingStale(new WebDriverWait(driver, WAIT));
    w.withMessage(what);
    return w;
  }

  /**
   * A wait that polls again when an element its condition found was re-rendered before the
   * condition read it (Angular replaces elements as the page updates; a failed run read a trace
   * tree the UI had just replaced).
   */
  static WebDriverWait retryingStale(WebDriverWait w) {
    w.ignoring(org.openqa.selenium.StaleElementReferenceException.class);
    return w;
  }

  /**
   * Replaces the name in the open dialog's input with {@code text}. The dev UI's eval dialogs fill
   * in a default name (here {@code eval_set_1} for a set, the session's first message for a case)
   * through {@code ngModel}, which writes the input's value asynchronously, after change detection:
   * text typed around such a write can be lost (a failed run showed the input empty after the test
   * had typed its name), and the set or case is then created under another name or not at all. So
   * the default is awaited first, the name is typed over it (select all, then type), and typed
   * again until the input has held exactly {@code text} at two looks in a row.
   */
  void typeIntoDialog(String text) {
    WebElement input =
        wait.until(
            ExpectedConditions.elementToBeClickable(By.xpath("//mat-dialog-container//input")));
    waitFor("the dialog's default name in its input")
        .until(d -> !String.valueOf(input.getAttribute("value")).isEmpty());
    int[] held = {0};
    waitFor("the dialog's input holding '" + text + "'")
        .until(
            d -> {
              if (text.equals(input.getAttribute("value"))) {
                return ++held[0] >= 2;
              }
              held[0] = 0;
              input.sendKeys(org.openqa.selenium.Keys.chord(org.openqa.selenium.Keys.CONTROL, "a"));
              input.sendKeys(text);
              return false;
            });
  }

  /** An element under {@code within} whose own text is exactly {@code text}. */
  static By byExactText(String text, String within) {
    return By.xpath("//" + within + "//*[normalize-space(text())='" + text + "']");
  }

  static String queryParam(String url, String name) {
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
  void saveScreenshot() throws IOException {
    byte[] png = ((ChromeDriver) driver).getScreenshotAs(OutputType.BYTES);
    Files.write(Path.of("target", "dev-ui.png"), png);
    Path docs = Path.of("..", "docs");
    Path committed = docs.resolve("dev-ui.png");
    if (Files.isDirectory(docs)
        && (!Files.exists(committed) || Boolean.getBoolean("adk4j.devui.updateScreenshot"))) {
      Files.write(committed, png);
    }
  }

  void saveFailure() {
    try {
      Path out =
          Files.createDirectories(Path.of("target", "dev-ui-failure", getClass().getSimpleName()));
      Files.write(
          out.resolve("page.png"), ((ChromeDriver) driver).getScreenshotAs(OutputType.BYTES));
      Files.writeString(out.resolve("page.html"), driver.getPageSource());
      System.err.println(
          getClass().getSimpleName()
              + " failed at "
              + driver.getCurrentUrl()
              + "; screenshot and page source in "
              + out.toAbsolutePath());
      // What a CI log keeps, where the files above are gone: the page's text and its errors.
      String text = driver.findElement(By.tagName("body")).getText();
      System.err.println("The page's text: " + text.substring(0, Math.min(text.length(), 3000)));
      for (org.openqa.selenium.logging.LogEntry entry :
          driver.manage().logs().get(org.openqa.selenium.logging.LogType.BROWSER)) {
        if (entry.getLevel().intValue() >= Level.WARNING.intValue()) {
          System.err.println("The page's console: " + entry.getMessage());
        }
      }
    } catch (IOException | RuntimeException e) {
      System.err.println(getClass().getSimpleName() + ": could not save the failed page: " + e);
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
