package dev.adk4j.sessions;

import dev.adk4j.internal.Json;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.Objects;
import javax.crypto.AEADBadTagException;
import javax.crypto.Cipher;
import javax.crypto.SecretKey;
import javax.crypto.spec.GCMParameterSpec;
import org.jspecify.annotations.Nullable;

/**
 * Encrypts and decrypts {@code secret:} values with AES-GCM (the JDK's {@code javax.crypto}): a
 * random 12-byte IV per value, a 128-bit tag, and the app, user, session and key as associated
 * data, so that a value copied to another session or key does not decrypt. A value is stored as the
 * string {@code adk4j:aes-gcm:v1:} followed by the URL-safe base64 of IV and ciphertext; its
 * plaintext is the value's JSON.
 *
 * <p>Thread-safe: a {@link Cipher} is made per call.
 */
final class SecretCipher {

  static final String PREFIX = "adk4j:aes-gcm:v1:";
  private static final int IV_BYTES = 12;
  private static final int TAG_BITS = 128;
  private static final SecureRandom RANDOM = new SecureRandom();

  private final SecretKey key;

  SecretCipher(SecretKey key) {
    this.key = checkKey(key);
  }

  /**
   * Checks that {@code key} is an AES key of 128, 192 or 256 bits.
   *
   * @throws IllegalArgumentException saying what is wrong (never showing the key)
   */
  static SecretKey checkKey(SecretKey key) {
    Objects.requireNonNull(key, "secretKey");
    if (!"AES".equalsIgnoreCase(key.getAlgorithm())) {
      throw new IllegalArgumentException(
          "secretKey must be an AES key, got a key for " + key.getAlgorithm());
    }
    byte[] encoded = key.getEncoded();
    if (encoded == null || (encoded.length != 16 && encoded.length != 24 && encoded.length != 32)) {
      throw new IllegalArgumentException(
          "secretKey must be of 128, 192 or 256 bits, got "
              + (encoded == null ? "a key that cannot be read" : encoded.length * 8 + " bits"));
    }
    return key;
  }

  /** The stored form of {@code value} (a normalized value) of {@code key} in that session. */
  String encrypt(String appName, String userId, String sessionId, String key, Object value) {
    byte[] iv = new byte[IV_BYTES];
    RANDOM.nextBytes(iv);
    try {
      Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
      cipher.init(Cipher.ENCRYPT_MODE, this.key, new GCMParameterSpec(TAG_BITS, iv));
      cipher.updateAAD(associatedData(appName, userId, sessionId, key));
      byte[] sealed = cipher.doFinal(Json.toJson(value).getBytes(StandardCharsets.UTF_8));
      byte[] out = ByteBuffer.allocate(iv.length + sealed.length).put(iv).put(sealed).array();
      return PREFIX + Base64.getUrlEncoder().withoutPadding().encodeToString(out);
    } catch (GeneralSecurityException e) {
      throw new SessionException(
          "Cannot encrypt secret '"
              + key
              + "' of "
              + SessionException.describe(appName, userId, sessionId)
              + ": "
              + e,
          e);
    }
  }

  /**
   * The value stored as {@code stored}.
   *
   * @throws SessionException naming the key and the session if it is not an encrypted value, or
   *     does not decrypt with this key (another key, or an altered value)
   */
  @Nullable Object decrypt(
      String appName, String userId, String sessionId, String key, @Nullable Object stored) {
    if (!(stored instanceof String text) || !text.startsWith(PREFIX)) {
      throw new SessionException(
          "Secret '"
              + key
              + "' of "
              + SessionException.describe(appName, userId, sessionId)
              + " is stored in clear or in an unknown form, not encrypted by adk4j;"
              + " remove the key or write it again");
    }
    try {
      byte[] in = Base64.getUrlDecoder().decode(text.substring(PREFIX.length()));
      if (in.length < IV_BYTES + TAG_BITS / 8) {
        throw new AEADBadTagException("too short");
      }
      Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
      cipher.init(Cipher.DECRYPT_MODE, this.key, new GCMParameterSpec(TAG_BITS, in, 0, IV_BYTES));
      cipher.updateAAD(associatedData(appName, userId, sessionId, key));
      byte[] plain = cipher.doFinal(in, IV_BYTES, in.length - IV_BYTES);
      return Json.normalize(
          key, Json.fromJson(new String(plain, StandardCharsets.UTF_8), Object.class));
    } catch (AEADBadTagException | IllegalArgumentException e) {
      throw new SessionException(
          "Cannot decrypt secret '"
              + key
              + "' of "
              + SessionException.describe(appName, userId, sessionId)
              + ": the configured secretKey is not the one it was encrypted with,"
              + " or the stored value was altered",
          e);
    } catch (GeneralSecurityException e) {
      throw new SessionException(
          "Cannot decrypt secret '"
              + key
              + "' of "
              + SessionException.describe(appName, userId, sessionId)
              + ": "
              + e,
          e);
    }
  }

  private static byte[] associatedData(
      String appName, String userId, String sessionId, String key) {
    return (appName + '\u0000' + userId + '\u0000' + sessionId + '\u0000' + key)
        .getBytes(StandardCharsets.UTF_8);
  }

  @Override
  public String toString() {
    return "SecretCipher{AES-GCM, " + key.getEncoded().length * 8 + " bits}";
  }
}
