package dev.adk4j.history;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A loopback TCP proxy in front of PostgreSQL, one per worker, so that one worker's network can be
 * cut while the others go on: {@link #cut()} closes every connection through it and refuses new
 * ones (as a network partition does to that worker) until {@link #heal()}.
 */
final class FaultProxy implements AutoCloseable {

  private final int targetPort;
  private final int port;
  private final Set<Socket> sockets = ConcurrentHashMap.newKeySet();
  private volatile boolean cut;
  private volatile boolean closed;
  private final ServerSocket listener;

  FaultProxy(int targetPort) throws IOException {
    this.targetPort = targetPort;
    this.listener = new ServerSocket();
    listener.setReuseAddress(true);
    listener.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 50);
    this.port = listener.getLocalPort();
    thread("accept", this::acceptLoop).start();
  }

  int port() {
    return port;
  }

  /** Drops every connection; new ones are closed as soon as they are accepted, until healed. */
  void cut() {
    cut = true;
    dropAll();
  }

  void heal() {
    cut = false;
  }

  /** Drops every connection once (the server or a router reset them); new ones are let through. */
  void dropAll() {
    for (Socket s : sockets) {
      closeQuietly(s);
    }
    sockets.clear();
  }

  @Override
  public void close() {
    closed = true;
    closeQuietly(listener);
    dropAll();
  }

  private void acceptLoop() {
    while (!closed) {
      Socket client;
      try {
        client = listener.accept();
      } catch (IOException e) {
        return;
      }
      if (cut) {
        closeQuietly(client);
        continue;
      }
      Socket upstream = new Socket();
      try {
        upstream.connect(
            new InetSocketAddress(InetAddress.getLoopbackAddress(), targetPort), 2_000);
      } catch (IOException e) {
        closeQuietly(client);
        closeQuietly(upstream);
        continue;
      }
      sockets.add(client);
      sockets.add(upstream);
      thread("up", () -> pump(client, upstream)).start();
      thread("down", () -> pump(upstream, client)).start();
    }
  }

  private void pump(Socket from, Socket to) {
    byte[] buffer = new byte[16 * 1024];
    try {
      InputStream in = from.getInputStream();
      OutputStream out = to.getOutputStream();
      int n;
      while ((n = in.read(buffer)) >= 0) {
        if (cut) {
          break;
        }
        out.write(buffer, 0, n);
        out.flush();
      }
    } catch (IOException e) {
      // one side closed, or the connection was cut
    } finally {
      closeQuietly(from);
      closeQuietly(to);
      sockets.remove(from);
      sockets.remove(to);
    }
  }

  private static Thread thread(String name, Runnable r) {
    Thread t = new Thread(r, "fault-proxy-" + name);
    t.setDaemon(true);
    return t;
  }

  private static void closeQuietly(java.io.Closeable c) {
    try {
      c.close();
    } catch (IOException ignored) {
      // closing anyway
    }
  }
}
