package dev.adk4j.tools;

import com.fasterxml.jackson.databind.BeanDescription;
import com.fasterxml.jackson.databind.JavaType;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.introspect.AnnotatedMember;
import com.fasterxml.jackson.databind.introspect.BeanPropertyDefinition;
import com.google.genai.types.Schema;
import com.google.genai.types.Type;
import dev.adk4j.internal.Json;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.net.URI;
import java.net.URL;
import java.time.temporal.TemporalAccessor;
import java.time.temporal.TemporalAmount;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.Set;
import java.util.UUID;
import org.jspecify.annotations.Nullable;

/**
 * Derives a genai {@link Schema} from a Java type, as Jackson (adk4j's JSON settings, {@link Json})
 * will read the model's JSON into it.
 *
 * <ul>
 *   <li>{@code boolean}: BOOLEAN; integral types ({@code int}, {@code Long}, {@code BigInteger},
 *       …): INTEGER; other numbers: NUMBER;
 *   <li>{@code String}, {@code char}, {@code UUID}, {@code URI}, {@code java.time} values and
 *       {@code Date}: STRING; {@code byte[]}: STRING with format {@code byte} (base64); enums:
 *       STRING with their Jackson names as {@code enum};
 *   <li>arrays and collections: ARRAY with {@code items}; maps: OBJECT without properties;
 *   <li>{@code Optional<T>}: the schema of {@code T} (and the property is optional);
 *   <li>records and classes: OBJECT whose properties are those Jackson can set (record components,
 *       public fields, setters, creator parameters); every property is required unless it is an
 *       {@code Optional} or annotated {@code @Schema(optional = true)}. A type that refers back to
 *       itself is described once; the inner reference is an OBJECT without properties;
 *   <li>{@code Object} and {@code JsonNode}: a schema without type (any JSON value).
 * </ul>
 *
 * Interfaces and abstract classes other than the above cannot be read by Jackson and are refused.
 */
final class FunctionSchemas {

  private FunctionSchemas() {}

  /** adk4j's JSON settings, for the type introspection Jackson will use to read arguments. */
  private static final ObjectMapper MAPPER = Json.newMapper();

  /**
   * The schema of {@code type}.
   *
   * @param where names the parameter, for error messages
   * @throws IllegalArgumentException if no schema can be derived
   */
  static Schema of(java.lang.reflect.Type type, String where) {
    return of(MAPPER.constructType(type), where, new HashSet<>());
  }

  /** Whether a value of {@code type} may be absent: {@code Optional} and its primitive kinds. */
  static boolean isOptionalType(Class<?> raw) {
    return raw == java.util.Optional.class
        || raw == OptionalInt.class
        || raw == OptionalLong.class
        || raw == OptionalDouble.class;
  }

  private static Schema of(JavaType type, String where, Set<Class<?>> inProgress) {
    Class<?> raw = type.getRawClass();
    if (type.isReferenceType()) {
      return of(type.getReferencedType(), where, inProgress);
    }
    if (raw == OptionalInt.class || raw == OptionalLong.class) {
      return typed(Type.Known.INTEGER);
    }
    if (raw == OptionalDouble.class) {
      return typed(Type.Known.NUMBER);
    }
    if (raw == boolean.class || raw == Boolean.class) {
      return typed(Type.Known.BOOLEAN);
    }
    if (raw == int.class
        || raw == long.class
        || raw == short.class
        || raw == byte.class
        || raw == Integer.class
        || raw == Long.class
        || raw == Short.class
        || raw == Byte.class
        || raw == BigInteger.class) {
      return typed(Type.Known.INTEGER);
    }
    if (raw == double.class
        || raw == float.class
        || raw == BigDecimal.class
        || Number.class.isAssignableFrom(raw)) {
      return typed(Type.Known.NUMBER);
    }
    if (raw == char.class
        || CharSequence.class.isAssignableFrom(raw)
        || raw == Character.class
        || raw == UUID.class
        || raw == URI.class
        || raw == URL.class
        || TemporalAccessor.class.isAssignableFrom(raw)
        || TemporalAmount.class.isAssignableFrom(raw)
        || java.util.Date.class.isAssignableFrom(raw)) {
      return typed(Type.Known.STRING);
    }
    if (raw == byte[].class) {
      return Schema.builder().type(Type.Known.STRING).format("byte").build();
    }
    if (raw.isEnum()) {
      List<String> names = new ArrayList<>();
      for (Object constant : raw.getEnumConstants()) {
        names.add(MAPPER.convertValue(constant, String.class));
      }
      return Schema.builder().type(Type.Known.STRING).enum_(names).build();
    }
    if (type.isArrayType() || type.isCollectionLikeType()) {
      return Schema.builder()
          .type(Type.Known.ARRAY)
          .items(of(type.getContentType(), where, inProgress))
          .build();
    }
    if (type.isMapLikeType()) {
      return typed(Type.Known.OBJECT);
    }
    if (raw == Object.class || JsonNode.class.isAssignableFrom(raw)) {
      return Schema.builder().build();
    }
    if (raw.isInterface()
        || java.lang.reflect.Modifier.isAbstract(raw.getModifiers())
        || raw.isPrimitive()
        || raw.getName().startsWith("java.")) {
      throw new IllegalArgumentException(
          "Cannot describe "
              + where
              + " of type "
              + type.toCanonical()
              + " to the model: use a record, a class with fields or setters, a collection, a map,"
              + " an enum, a string, a number or a boolean");
    }
    return bean(type, where, inProgress);
  }

  private static Schema bean(JavaType type, String where, Set<Class<?>> inProgress) {
    Class<?> raw = type.getRawClass();
    if (!inProgress.add(raw)) {
      return Schema.builder()
          .type(Type.Known.OBJECT)
          .description("A " + raw.getSimpleName() + " (recursive)")
          .build();
    }
    try {
      BeanDescription description = MAPPER.getDeserializationConfig().introspect(type);
      Map<String, Schema> properties = new LinkedHashMap<>();
      List<String> required = new ArrayList<>();
      for (BeanPropertyDefinition property : description.findProperties()) {
        if (!property.couldDeserialize()) {
          continue;
        }
        String name = property.getName();
        String propertyWhere = "property '" + name + "' of " + raw.getName();
        Annotations.Schema annotation = annotation(property);
        if (annotation != null && !annotation.name().isEmpty()) {
          throw new IllegalArgumentException(
              "@Schema(name = \""
                  + annotation.name()
                  + "\") on "
                  + propertyWhere
                  + " is not supported: rename the property with @JsonProperty");
        }
        JavaType propertyType = property.getPrimaryType();
        Schema schema = of(propertyType, propertyWhere, inProgress);
        if (annotation != null && !annotation.description().isEmpty()) {
          schema = schema.toBuilder().description(annotation.description()).build();
        }
        properties.put(name, schema);
        boolean optional =
            (annotation != null && annotation.optional())
                || isOptionalType(propertyType.getRawClass());
        if (!optional) {
          required.add(name);
        }
      }
      Schema.Builder b = Schema.builder().type(Type.Known.OBJECT).properties(properties);
      if (!required.isEmpty()) {
        b.required(required);
      }
      return b.build();
    } finally {
      inProgress.remove(raw);
    }
  }

  /** The {@code @Schema} on any member behind {@code property}, if there is one. */
  private static Annotations.@Nullable Schema annotation(BeanPropertyDefinition property) {
    AnnotatedMember[] members = {
      property.getConstructorParameter(),
      property.getField(),
      property.getSetter(),
      property.getGetter()
    };
    for (AnnotatedMember member : members) {
      if (member != null) {
        Annotations.Schema a = member.getAnnotation(Annotations.Schema.class);
        if (a != null) {
          return a;
        }
      }
    }
    return null;
  }

  private static Schema typed(Type.Known type) {
    return Schema.builder().type(type).build();
  }
}
