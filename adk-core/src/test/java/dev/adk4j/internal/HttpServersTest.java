package dev.adk4j.internal;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** adk4j's JDK HTTP servers turn Nagle's algorithm off, unless the application chose otherwise. */
class HttpServersTest {

  private final String before = System.getProperty(HttpServers.NO_DELAY);

  @AfterEach
  void restore() {
    if (before == null) {
      System.clearProperty(HttpServers.NO_DELAY);
    } else {
      System.setProperty(HttpServers.NO_DELAY, before);
    }
  }

  private static void startAndStop() throws Exception {
    HttpServer s =
        HttpServers.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    s.stop(0);
  }

  @Test
  void aServer_turnsTcpNoDelayOn_whenTheApplicationSaidNothing() throws Exception {
    System.clearProperty(HttpServers.NO_DELAY);
    startAndStop();
    assertThat(System.getProperty(HttpServers.NO_DELAY)).isEqualTo("true");
  }

  @Test
  void anApplicationsOwnChoice_isKept() throws Exception {
    System.setProperty(HttpServers.NO_DELAY, "false");
    startAndStop();
    assertThat(System.getProperty(HttpServers.NO_DELAY)).isEqualTo("false");
  }
}
