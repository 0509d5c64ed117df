package dev.adk4j.examples;

import dev.adk4j.agents.LlmAgent;
import dev.adk4j.events.Event;
import dev.adk4j.runner.Runner;
import dev.adk4j.sessions.BaseSessionService;
import dev.adk4j.sessions.DatabaseSessionConfig;
import dev.adk4j.sessions.DatabaseSessionService;
import dev.adk4j.sessions.Session;
import dev.adk4j.tools.Annotations.Schema;
import dev.adk4j.tools.FunctionTool;
import dev.adk4j.tools.ToolContext;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.List;
import java.util.Map;
import javax.crypto.SecretKey;
import javax.crypto.spec.SecretKeySpec;

/**
 * The {@code secret:} scope: a sign-in tool keeps an API token in {@code secret:api_token}, a later
 * turn's tool uses it, and neither the stored events nor the printed state show it. Then the same
 * on a database that keeps secrets encrypted with a key, across a restart.
 */
public final class SecretStateExample {
  private SecretStateExample() {}

  /** What a real sign-in would get back from an identity provider; never shown to the model. */
  static final String DEMO_TOKEN = "demo-token-4f8a1c";

  // tag::secret-tools[]
  /** Signs the user in and keeps the token for later calls; the model never sees it. */
  @Schema(name = "sign_in", description = "Signs the user in to the weather API.")
  public static Map<String, Object> signIn(ToolContext context) {
    String token = DEMO_TOKEN; // in a real tool: the result of an OAuth exchange
    context.state().put("secret:api_token", token); // kept for the session, never in an event
    return Map.of("signed_in", true);
  }

  /** Calls the API with the token kept by {@link #signIn}. */
  @Schema(name = "call_api", description = "Calls the weather API as the signed-in user.")
  public static Map<String, Object> callApi(ToolContext context) {
    Object token = context.state().get("secret:api_token");
    return Map.of("authorized", DEMO_TOKEN.equals(token));
  }

  // end::secret-tools[]

  static LlmAgent agent(String name, String toolMethod, String reply) {
    return LlmAgent.builder()
        .name(name)
        .model(ExampleModels.model(r -> reply))
        .instruction("Use your tool, then answer in one sentence.")
        .tools(FunctionTool.create(SecretStateExample.class, toolMethod))
        .build();
  }

  /** Runs the example; returns whether the stored events and the transcript held no token. */
  public static boolean run(BaseSessionService sessions, Path dataDir, Transcript t) {
    ExampleSupport.freshSession(sessions, "secret_app", "dana", "secrets", null);
    t.step("A sign-in tool keeps a token in secret:api_token; a later turn's tool uses it");
    ExampleSupport.run(
        new Runner(agent("SignIn", "signIn", "You are signed in."), "secret_app", null, sessions),
        "dana",
        "secrets",
        "Sign me in.",
        t);
    List<Event> second =
        ExampleSupport.run(
            new Runner(agent("Caller", "callApi", "Done."), "secret_app", null, sessions),
            "dana",
            "secrets",
            "What's the weather?",
            t);
    Session session = ExampleSupport.load(sessions, "secret_app", "dana", "secrets");
    t.state("State (secrets show as ***)", session);
    boolean clean = noToken(session.events()) && noToken(second);
    t.say("stored events free of the token: " + clean);

    t.step("Encrypted at rest: a database with a secretKey keeps secrets across restarts");
    Path file = dataDir.resolve("secrets.db");
    // tag::secret-key[]
    DatabaseSessionConfig config = DatabaseSessionConfig.builder().secretKey(demoKey()).build();
    try (DatabaseSessionService db = new DatabaseSessionService("jdbc:sqlite:" + file, config)) {
      ExampleSupport.freshSession(
          db, "secret_app", "dana", "vault", Map.of("secret:api_token", DEMO_TOKEN));
    }
    try (DatabaseSessionService reopened =
        new DatabaseSessionService("jdbc:sqlite:" + file, config)) {
      Session again = reopened.getSession("secret_app", "dana", "vault").blockingGet();
      boolean kept = DEMO_TOKEN.equals(again.state().get("secret:api_token"));
      // end::secret-key[]
      t.say("after a restart the token is readable again: " + kept);
      t.state("State read back", again);
      return clean && kept;
    }
  }

  private static boolean noToken(List<Event> events) {
    return events.stream().noneMatch(e -> e.toJson().contains(DEMO_TOKEN));
  }

  /**
   * A fixed key, for the demo only: in production, load the key's bytes from your secret manager
   * (and never from a constant).
   */
  static SecretKey demoKey() {
    try {
      byte[] bytes =
          MessageDigest.getInstance("SHA-256")
              .digest("adk4j demo key".getBytes(StandardCharsets.UTF_8));
      return new SecretKeySpec(bytes, "AES");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}
