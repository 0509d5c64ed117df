package dev.adk4j.runner;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import dev.adk4j.agents.LlmAgent;
import dev.adk4j.plugins.LoggingPlugin;
import dev.adk4j.testing.ScriptedLlm;
import dev.adk4j.testsupport.Contents;
import dev.adk4j.tools.FunctionTool;
import dev.adk4j.tools.ToolContext;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/** What {@link LoggingPlugin} logs: every step, by name and key, and no value unless asked. */
class LoggingPluginTest {

  static final String SECRET = "4111-1111-1111-1111";

  private final Logger logger = (Logger) LoggerFactory.getLogger(LoggingPlugin.class);
  private final ListAppender<ILoggingEvent> appender = new ListAppender<>();
  private Level before;

  @BeforeEach
  void capture() {
    before = logger.getLevel();
    logger.setLevel(Level.INFO);
    logger.setAdditive(false); // captured here, not printed
    appender.start();
    logger.addAppender(appender);
  }

  @AfterEach
  void release() {
    logger.detachAppender(appender);
    logger.setAdditive(true);
    logger.setLevel(before);
  }

  /** Stores the card it is given. */
  public static Map<String, Object> storeCard(String card, ToolContext context) {
    context.state().put("user:card", card);
    return Map.of("stored", card);
  }

  private List<String> run(LoggingPlugin plugin) {
    ScriptedLlm model =
        ScriptedLlm.builder()
            .thenFunctionCall("storeCard", Map.of("card", SECRET))
            .thenText("Stored " + SECRET)
            .build();
    LlmAgent agent =
        LlmAgent.builder()
            .name("cashier")
            .model(model)
            .instruction("Keep cards safe.")
            .tools(FunctionTool.create(LoggingPluginTest.class, "storeCard"))
            .build();
    InMemoryRunner runner = new InMemoryRunner(agent, "shop", List.of(plugin));
    runner.sessionService().createSession("shop", "u", null, "s").blockingGet();
    runner.runAsync("u", "s", Contents.user("my card is " + SECRET)).blockingSubscribe();
    return appender.list.stream().map(ILoggingEvent::getFormattedMessage).toList();
  }

  @Test
  void logsEveryStep_withNamesAndKeys_butNoValues() {
    List<String> lines = run(new LoggingPlugin());

    assertThat(lines).allMatch(l -> l.startsWith("[logging_plugin] "));
    assertThat(String.join("\n", lines))
        .contains("user message for invocation")
        .contains("agent 'cashier' starts")
        .contains("model call of agent 'cashier'")
        .contains("tool 'storeCard' called by agent 'cashier'")
        .contains("with keys [card]")
        .contains("state keys written [user:card]")
        .contains("agent 'cashier' ends")
        .contains("completed")
        .doesNotContain(SECRET)
        .doesNotContain("Keep cards safe");
  }

  @Test
  void withValues_logsTextsArgumentsAndState() {
    List<String> lines = run(new LoggingPlugin("verbose", true));

    assertThat(String.join("\n", lines))
        .contains("[verbose] ")
        .contains(SECRET)
        .contains("\"user:card\"");
  }

  /** Charges the card kept as a secret, returns it, and keeps a new secret token. */
  public static Map<String, Object> charge(ToolContext context) {
    String card = (String) context.state().get("secret:card");
    context.state().put("secret:token", "tok-" + card);
    context.state().put("user:last4", card.substring(card.length() - 4));
    return Map.of("charged", card);
  }

  /**
   * Issue 33: even with values logged, no line carries a {@code secret:} value held in state: not
   * the tool's state delta, not what the tool returned, not the model's answer or the events.
   */
  @Test
  void withValues_secretValuesAreNeverLogged() {
    ScriptedLlm model =
        ScriptedLlm.builder()
            .thenFunctionCall("charge", Map.of())
            .thenText("Charged " + SECRET + " with token tok-" + SECRET)
            .build();
    LlmAgent agent =
        LlmAgent.builder()
            .name("cashier")
            .model(model)
            .instruction("Keep cards safe.")
            .tools(FunctionTool.create(LoggingPluginTest.class, "charge"))
            .build();
    InMemoryRunner runner =
        new InMemoryRunner(agent, "shop", List.of(new LoggingPlugin("verbose", true)));
    runner
        .sessionService()
        .createSession("shop", "u", Map.of("secret:card", SECRET), "s")
        .blockingGet();
    runner.runAsync("u", "s", Contents.user("charge my card")).blockingSubscribe();
    String logged =
        String.join("\n", appender.list.stream().map(ILoggingEvent::getFormattedMessage).toList());

    assertThat(logged)
        .contains("\"secret:token\":\"***\"")
        .contains("\"user:last4\":\"1111\"")
        .contains("{\"charged\":\"***\"}")
        .contains("Charged *** with token ***")
        .doesNotContain(SECRET);
  }
}
