package dev.adk4j.runner;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.genai.Client;
import com.google.genai.types.ClientOptions;
import com.google.genai.types.HttpOptions;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.KeyStore;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509TrustManager;
import okhttp3.OkHttpClient;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.ssl.SslContextFactory;
import org.eclipse.jetty.websocket.api.Callback;
import org.eclipse.jetty.websocket.api.Session;
import org.eclipse.jetty.websocket.server.WebSocketUpgradeHandler;
import org.jspecify.annotations.Nullable;

/**
 * A fake of the Gemini Live API ({@code BidiGenerateContent}) on loopback, written from the API's
 * public reference: a TLS websocket server (google-genai always connects with {@code wss}) that
 * answers the client's {@code setup} message with {@code setupComplete}, then hands it and every
 * later client message ({@code clientContent}, {@code realtimeInput}, {@code toolResponse}) to a
 * script that answers with server messages ({@code serverContent} with a model turn or {@code
 * turnComplete}, {@code toolCall}, {@code usageMetadata}) or closes the connection. It records
 * every message it receives. {@link #client()} is a real google-genai client pointed at it,
 * trusting its self-signed certificate (a test keystore, {@code live/fake-live-api.p12}).
 */
public final class FakeLiveApi implements AutoCloseable {
  static final ObjectMapper JSON = new ObjectMapper();
  private static final char[] PASSWORD = "fake-live-api".toCharArray();

  /** What the script answers with, on the connection of the message it answers. */
  interface Reply {
    void send(JsonNode serverMessage);

    /** Closes the websocket from the server's side with {@code code} and {@code reason}. */
    void close(int code, String reason);
  }

  /** Answers one client message; a setup, after the fake has answered it with setupComplete. */
  interface Script {
    void answer(JsonNode clientMessage, Reply reply);
  }

  private final Script script;
  private final List<JsonNode> received = new CopyOnWriteArrayList<>();
  private final SSLContext tls;
  private final Server server;
  private final ServerConnector connector;

  FakeLiveApi(Script script) throws Exception {
    this.script = script;
    KeyStore keys = KeyStore.getInstance("PKCS12");
    try (InputStream in = FakeLiveApi.class.getResourceAsStream("/live/fake-live-api.p12")) {
      keys.load(in, PASSWORD);
    }
    KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
    kmf.init(keys, PASSWORD);
    TrustManagerFactory tmf =
        TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
    tmf.init(keys);
    tls = SSLContext.getInstance("TLS");
    tls.init(kmf.getKeyManagers(), tmf.getTrustManagers(), null);
    SslContextFactory.Server ssl = new SslContextFactory.Server();
    ssl.setSslContext(tls);
    server = new Server();
    connector = new ServerConnector(server, ssl);
    connector.setHost("127.0.0.1");
    connector.setPort(0);
    server.addConnector(connector);
    server.setHandler(
        WebSocketUpgradeHandler.from(
            server, container -> container.addMapping("/*", (rq, rs, cb) -> new Connection(this))));
    server.start();
  }

  /** The base URL to give the client: {@code https://127.0.0.1:<port>}. */
  String baseUrl() {
    return "https://127.0.0.1:" + connector.getLocalPort();
  }

  /** A google-genai client on this fake (Gemini Developer API shape, a dummy key). */
  Client client() {
    X509TrustManager trust;
    try {
      TrustManagerFactory tmf =
          TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
      KeyStore keys = KeyStore.getInstance("PKCS12");
      try (InputStream in = FakeLiveApi.class.getResourceAsStream("/live/fake-live-api.p12")) {
        keys.load(in, PASSWORD);
      }
      tmf.init(keys);
      trust = (X509TrustManager) tmf.getTrustManagers()[0];
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
    OkHttpClient http =
        new OkHttpClient.Builder().sslSocketFactory(tls.getSocketFactory(), trust).build();
    return Client.builder()
        .apiKey("fake-key")
        .vertexAI(false)
        .httpOptions(HttpOptions.builder().baseUrl(baseUrl()).build())
        .clientOptions(ClientOptions.builder().customHttpClient(http).build())
        .build();
  }

  /** Every message the fake received, in order, setups included. */
  List<JsonNode> received() {
    return List.copyOf(received);
  }

  /** The received messages that have field {@code kind} ({@code clientContent}, ...). */
  List<JsonNode> received(String kind) {
    return received.stream().filter(m -> m.has(kind)).map(m -> m.get(kind)).toList();
  }

  @Override
  public void close() throws Exception {
    server.stop();
  }

  // ---- server messages, as the API's reference spells them ----

  static JsonNode text(String text) {
    ObjectNode m = JSON.createObjectNode();
    ArrayNode parts = m.putObject("serverContent").putObject("modelTurn").putArray("parts");
    parts.addObject().put("text", text);
    return m;
  }

  static JsonNode turnComplete() {
    ObjectNode m = JSON.createObjectNode();
    m.putObject("serverContent").put("turnComplete", true);
    return m;
  }

  static JsonNode usage(int prompt, int response) {
    ObjectNode m = JSON.createObjectNode();
    m.putObject("usageMetadata")
        .put("promptTokenCount", prompt)
        .put("responseTokenCount", response)
        .put("totalTokenCount", prompt + response);
    return m;
  }

  static JsonNode toolCall(String id, String name, Map<String, Object> args) {
    ObjectNode m = JSON.createObjectNode();
    ObjectNode call = m.putObject("toolCall").putArray("functionCalls").addObject();
    call.put("id", id).put("name", name);
    call.set("args", JSON.valueToTree(args));
    return m;
  }

  /** The text of the last turn of a {@code clientContent} message, or "". */
  static String lastTurnText(JsonNode clientContent) {
    JsonNode turns = clientContent.path("turns");
    if (turns.size() == 0) {
      return "";
    }
    StringBuilder text = new StringBuilder();
    for (JsonNode p : turns.get(turns.size() - 1).path("parts")) {
      text.append(p.path("text").asText(""));
    }
    return text.toString();
  }

  /**
   * {@code m} with its top-level fields in lowerCamelCase: the API reads protobuf JSON, which
   * accepts a field's proto name too, and google-genai 1.70 sends {@code realtime_input} so.
   */
  private static JsonNode camelCaseFields(JsonNode m) {
    ObjectNode out = JSON.createObjectNode();
    m.fields()
        .forEachRemaining(
            f -> {
              StringBuilder name = new StringBuilder();
              boolean upper = false;
              for (char c : f.getKey().toCharArray()) {
                if (c == '_') {
                  upper = true;
                } else {
                  name.append(upper ? Character.toUpperCase(c) : c);
                  upper = false;
                }
              }
              out.set(name.toString(), f.getValue());
            });
    return out;
  }

  /**
   * One client connection: the websocket server is Jetty's. (It was Java-WebSocket's, whose server
   * 1.6.0 can leave a frame sent from a message handler unsent until the next write: its selector
   * thread, done writing, resets the key's interest to reading only, over the write interest a
   * handler's send has just set. A live run then waited for a reply the fake had sent.) Public, as
   * Jetty reaches a listener's methods through public method handles.
   */
  public static final class Connection implements Session.Listener.AutoDemanding {
    private final FakeLiveApi api;
    private volatile @Nullable Session session;

    Connection(FakeLiveApi api) {
      this.api = api;
    }

    @Override
    public void onWebSocketOpen(Session session) {
      this.session = session;
    }

    @Override
    public void onWebSocketBinary(ByteBuffer payload, Callback callback) {
      onWebSocketText(StandardCharsets.UTF_8.decode(payload).toString());
      callback.succeed();
    }

    @Override
    public void onWebSocketText(String message) {
      Session conn = session;
      if (conn == null) {
        return;
      }
      JsonNode m;
      try {
        m = JSON.readTree(message);
      } catch (Exception e) {
        conn.close(1007, "not JSON", Callback.NOOP);
        return;
      }
      m = camelCaseFields(m);
      api.received.add(m);
      if (m.has("setup")) {
        ObjectNode done = JSON.createObjectNode();
        done.putObject("setupComplete");
        send(conn, done);
      }
      api.script.answer(
          m,
          new Reply() {
            @Override
            public void send(JsonNode serverMessage) {
              Connection.send(conn, serverMessage);
            }

            @Override
            public void close(int code, String reason) {
              conn.close(code, reason, Callback.NOOP);
            }
          });
    }

    /** Sends {@code message} and waits until it is written, so that replies keep their order. */
    private static void send(Session conn, JsonNode message) {
      Callback.Completable sent = new Callback.Completable();
      conn.sendText(message.toString(), sent);
      try {
        sent.get(10, TimeUnit.SECONDS);
      } catch (Exception e) {
        throw new IllegalStateException("the fake Live API could not send " + message, e);
      }
    }
  }
}
