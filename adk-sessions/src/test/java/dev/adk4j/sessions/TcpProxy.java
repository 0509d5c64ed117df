package dev.adk4j.sessions;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A TCP proxy between a database client and its server, for fault tests: it forwards bytes both
 * ways until told to {@link #freeze()} (bytes are still read but held, as by a server that stopped
 * answering, until {@link #resume()}), to {@link #dropAll()} its connections (as a server that went
 * away), or to {@link #refuse()} new ones (as a port nobody listens on, until {@link #accept()}).
 * Each connection is served by two daemon threads.
 */
final class TcpProxy implements AutoCloseable {

  private static final AtomicInteger THREADS = new AtomicInteger();

  private final String targetHost;
  private final int targetPort;
  private final int port;
  private final Set<Socket> sockets = ConcurrentHashMap.newKeySet();
  private final Object gate = new Object();
  private volatile boolean frozen;
  private volatile boolean closed;
  private volatile ServerSocket listener;

  TcpProxy(String targetHost, int targetPort) {
    this.targetHost = targetHost;
    this.targetPort = targetPort;
    this.listener = listen(0);
    this.port = listener.getLocalPort();
    startAccepting(listener);
  }

  /** The local port clients connect to. */
  int port() {
    return port;
  }

  /** Stops forwarding in both directions; what arrives meanwhile is held until {@link #resume}. */
  void freeze() {
    frozen = true;
  }

  /** Forwards again, held bytes first. */
  void resume() {
    synchronized (gate) {
      frozen = false;
      gate.notifyAll();
    }
  }

  /** Closes every connection through the proxy (both ends). */
  void dropAll() {
    synchronized (sockets) {
      for (Socket s : sockets) {
        closeQuietly(s);
      }
      sockets.clear();
    }
  }

  /** Stops listening: new connections are refused until {@link #accept()}. */
  void refuse() {
    closeQuietly(listener);
  }

  /** Listens again on the same port. */
  void accept() {
    if (!listener.isClosed()) {
      return;
    }
    listener = listen(port);
    startAccepting(listener);
  }

  /** How many client connections are open through the proxy. */
  int openConnections() {
    return sockets.size() / 2;
  }

  @Override
  public void close() {
    closed = true;
    resume();
    refuse();
    dropAll();
  }

  private static ServerSocket listen(int port) {
    try {
      ServerSocket s = new ServerSocket();
      s.setReuseAddress(true);
      s.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 50);
      return s;
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot listen on port " + port, e);
    }
  }

  private void startAccepting(ServerSocket server) {
    daemon("accept", () -> acceptLoop(server)).start();
  }

  private void acceptLoop(ServerSocket server) {
    while (!closed && !server.isClosed()) {
      Socket client;
      try {
        client = server.accept();
      } catch (IOException e) {
        return; // closed by refuse() or close()
      }
      Socket upstream = new Socket();
      try {
        upstream.connect(new InetSocketAddress(targetHost, targetPort), 5_000);
      } catch (IOException e) {
        closeQuietly(client);
        closeQuietly(upstream);
        continue;
      }
      synchronized (sockets) {
        // Accepted before refuse(), connected upstream after it (and maybe after the dropAll()
        // that follows it): the cut must not let it through.
        if (closed || server.isClosed()) {
          closeQuietly(client);
          closeQuietly(upstream);
          return;
        }
        sockets.add(client);
        sockets.add(upstream);
      }
      daemon("up", () -> pump(client, upstream)).start();
      daemon("down", () -> pump(upstream, client)).start();
    }
  }

  private void pump(Socket from, Socket to) {
    byte[] buffer = new byte[16 * 1024];
    try {
      InputStream in = from.getInputStream();
      OutputStream out = to.getOutputStream();
      while (true) {
        int n = in.read(buffer);
        if (n < 0) {
          break;
        }
        awaitUnfrozen();
        out.write(buffer, 0, n);
        out.flush();
      }
    } catch (IOException | InterruptedException e) {
      // a side closed, or the proxy dropped the connection
    } finally {
      closeQuietly(from);
      closeQuietly(to);
      sockets.remove(from);
      sockets.remove(to);
    }
  }

  private void awaitUnfrozen() throws InterruptedException {
    synchronized (gate) {
      while (frozen) {
        gate.wait();
      }
    }
  }

  private static Thread daemon(String name, Runnable r) {
    Thread t = new Thread(r, "tcp-proxy-" + name + "-" + THREADS.incrementAndGet());
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
