package dev.adk4j.runner;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.genai.Client;
import com.google.genai.types.ClientOptions;
import com.google.genai.types.HttpOptions;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.security.KeyStore;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLServerSocket;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509TrustManager;
import okhttp3.OkHttpClient;
import org.java_websocket.WebSocket;
import org.java_websocket.handshake.ClientHandshake;
import org.java_websocket.server.WebSocketServer;

/**
 * A fake of the Gemini Live API ({@code BidiGenerateContent}) on loopback, written from the API's
 * public reference: a TLS websocket server (google-genai always connects with {@code wss}) that
 * answers the client's {@code setup} message with {@code setupComplete}, then hands every later
 * client message ({@code clientContent}, {@code realtimeInput}, {@code toolResponse}) to a script
 * that answers with server messages ({@code serverContent} with a model turn or {@code
 * turnComplete}, {@code toolCall}, {@code usageMetadata}) or closes the connection. It records
 * every message it receives. {@link #client()} is a real google-genai client pointed at it,
 * trusting its self-signed certificate (a test keystore, {@code live/fake-live-api.p12}).
 */
final class FakeLiveApi implements AutoCloseable {
  static final ObjectMapper JSON = new ObjectMapper();
  private static final char[] PASSWORD = "fake-live-api".toCharArray();

  /** What the script answers with, on the connection of the message it answers. */
  interface Reply {
    void send(JsonNode serverMessage);

    /** Closes the websocket from the server's side with {@code code} and {@code reason}. */
    void close(int code, String reason);
  }

  /** Answers one client message (not the setup). */
  interface Script {
    void answer(JsonNode clientMessage, Reply reply);
  }

  private final Script script;
  private final List<JsonNode> received = new CopyOnWriteArrayList<>();
  private final Server server;
  private final SSLContext tls;
  private final SSLServerSocket front;

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
    server = new Server();
    server.setReuseAddr(true);
    server.start();
    if (!server.started.await(10, TimeUnit.SECONDS)) {
      throw new IllegalStateException("the fake Live API did not start");
    }
    front =
        (SSLServerSocket)
            tls.getServerSocketFactory()
                .createServerSocket(0, 50, java.net.InetAddress.getLoopbackAddress());
    Thread accepting = new Thread(this::acceptTls, "fake-live-api-tls");
    accepting.setDaemon(true);
    accepting.start();
  }

  /** The base URL to give the client: {@code https://127.0.0.1:<port>}. */
  String baseUrl() {
    return "https://127.0.0.1:" + front.getLocalPort();
  }

  /**
   * TLS is ended here, by the JDK's own server socket, and the plain bytes go to the websocket
   * server: Java-WebSocket's TLS channel can lose a client message that arrives in the same read as
   * a handshake record (its issue #1418). Under a loaded build the fake once missed a run's
   * realtimeInput, and with TLS 1.2's resumed handshakes it missed whole upgrade requests.
   */
  private void acceptTls() {
    while (!front.isClosed()) {
      try {
        Socket client = front.accept();
        Socket plain = new Socket(java.net.InetAddress.getLoopbackAddress(), server.getPort());
        pipe(client, plain);
        pipe(plain, client);
      } catch (IOException e) {
        return; // closed
      }
    }
  }

  private static void pipe(Socket from, Socket to) {
    Thread t =
        new Thread(
            () -> {
              try (from;
                  to) {
                from.getInputStream().transferTo(to.getOutputStream());
              } catch (IOException e) {
                // one side closed: closing both ends the other direction too
              }
            },
            "fake-live-api-pipe");
    t.setDaemon(true);
    t.start();
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
    front.close();
    server.stop(1000);
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

  private final class Server extends WebSocketServer {
    final CountDownLatch started = new CountDownLatch(1);

    Server() {
      super(new InetSocketAddress("127.0.0.1", 0));
    }

    @Override
    public void onOpen(WebSocket conn, ClientHandshake handshake) {}

    @Override
    public void onClose(WebSocket conn, int code, String reason, boolean remote) {}

    @Override
    public void onMessage(WebSocket conn, ByteBuffer message) {
      onMessage(conn, java.nio.charset.StandardCharsets.UTF_8.decode(message).toString());
    }

    @Override
    public void onMessage(WebSocket conn, String message) {
      JsonNode m;
      try {
        m = JSON.readTree(message);
      } catch (Exception e) {
        conn.close(1007, "not JSON");
        return;
      }
      m = camelCaseFields(m);
      received.add(m);
      if (m.has("setup")) {
        ObjectNode done = JSON.createObjectNode();
        done.putObject("setupComplete");
        conn.send(done.toString());
        return;
      }
      script.answer(
          m,
          new Reply() {
            @Override
            public void send(JsonNode serverMessage) {
              conn.send(serverMessage.toString());
            }

            @Override
            public void close(int code, String reason) {
              conn.close(code, reason);
            }
          });
    }

    @Override
    public void onError(WebSocket conn, Exception ex) {}

    @Override
    public void onStart() {
      started.countDown();
    }
  }
}
