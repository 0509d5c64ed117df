package dev.adk4j.history;

/**
 * Which stored value a state key names: an {@code app:} key is one value for the app, a {@code
 * user:} key one per user, any other key one per session.
 *
 * @param owner "" for an app key, the user id for a user key, "user/session" for a session key
 * @param key the key, its prefix included
 */
record KeyRef(String owner, String key) {

  static KeyRef of(String user, String session, String key) {
    if (key.startsWith("app:")) {
      return new KeyRef("", key);
    }
    if (key.startsWith("user:")) {
      return new KeyRef(user, key);
    }
    return new KeyRef(user + "/" + session, key);
  }

  boolean sessionScoped() {
    return owner.contains("/");
  }

  /** Keys named {@code ...c<n>} are counters: only ever incremented. */
  boolean counter() {
    int colon = key.lastIndexOf(':');
    return key.substring(colon + 1).startsWith("c");
  }

  @Override
  public String toString() {
    return owner.isEmpty() ? key : owner + ":" + key;
  }
}
