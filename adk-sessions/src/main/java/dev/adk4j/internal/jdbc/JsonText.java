package dev.adk4j.internal.jdbc;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.fasterxml.jackson.databind.ser.std.StdSerializer;
import dev.adk4j.internal.Json;
import java.io.IOException;
import java.math.BigDecimal;
import org.jspecify.annotations.Nullable;

/**
 * The JSON text the store writes, per dialect, so that every value reads back as {@link
 * Json#normalize} would give it, as from {@code InMemorySessionService}.
 *
 * <p>SQLite keeps the text as written: the shared mapper's. PostgreSQL's JSONB keeps numbers as
 * {@code numeric}, which forgets exponent notation: {@code 1.0E20} comes back as {@code
 * 100000000000000000000}, which Jackson reads as an integer. So for PostgreSQL floating-point
 * numbers are written in plain notation with a fraction ({@code 100000000000000000000.0}), which
 * {@code numeric} keeps and Jackson reads back as the same {@code Double}. (JSONB has no negative
 * zero: {@code -0.0} reads back as {@code 0.0}.)
 */
final class JsonText {
  private JsonText() {}

  private static final ObjectMapper PLAIN_NUMBERS =
      Json.newMapper()
          .registerModule(
              new SimpleModule("adk4j-plain-floating-point")
                  .addSerializer(Double.class, new PlainDecimal<>(Double.class))
                  .addSerializer(double.class, new PlainDecimal<>(Double.class))
                  .addSerializer(Float.class, new PlainDecimal<>(Float.class))
                  .addSerializer(float.class, new PlainDecimal<>(Float.class)));

  /** {@code value} as JSON text for {@code dialect}. */
  static String write(Dialect dialect, @Nullable Object value) {
    if (dialect != Dialect.POSTGRESQL) {
      return Json.toJson(value);
    }
    try {
      return PLAIN_NUMBERS.writeValueAsString(value);
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException(
          "Cannot serialize " + (value == null ? "null" : value.getClass().getName()), e);
    }
  }

  /** Writes finite floating-point numbers in plain notation, always with a fraction. */
  private static final class PlainDecimal<T extends Number> extends StdSerializer<T> {
    private static final long serialVersionUID = 1L;

    PlainDecimal(Class<T> type) {
      super(type);
    }

    @Override
    public void serialize(T value, JsonGenerator gen, SerializerProvider provider)
        throws IOException {
      double d = value.doubleValue();
      if (Double.isNaN(d) || Double.isInfinite(d)) {
        gen.writeNumber(d); // refused upstream by Json.normalize; keep Jackson's behaviour
        return;
      }
      // Float.toString keeps a float's shortest form (0.1f, not 0.10000000149011612).
      String shortest =
          value instanceof Float ? Float.toString(value.floatValue()) : Double.toString(d);
      String plain = new BigDecimal(shortest).toPlainString();
      gen.writeNumber(plain.indexOf('.') < 0 ? plain + ".0" : plain);
    }
  }
}
