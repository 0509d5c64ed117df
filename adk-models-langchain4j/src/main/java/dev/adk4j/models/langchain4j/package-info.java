/**
 * An adk4j model over any LangChain4j chat model: {@link
 * dev.adk4j.models.langchain4j.LangChain4jModel}.
 *
 * <p>Null policy (every adk4j package): types are non-null unless annotated {@code @Nullable}; an
 * absent value is an empty {@code Optional} only where ADK's API returns one.
 */
@NullMarked
package dev.adk4j.models.langchain4j;

import org.jspecify.annotations.NullMarked;
