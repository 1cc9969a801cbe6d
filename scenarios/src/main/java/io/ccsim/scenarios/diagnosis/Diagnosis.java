package io.ccsim.scenarios.diagnosis;

import java.util.List;

/**
 * One finding of the analyzer.
 *
 * @param category from the documented vocabulary
 * @param ranks    global ranks it names (culprits first)
 * @param links    topology link ids it names
 * @param summary  the sentence an engineer would paste in an incident report
 */
public record Diagnosis(Category category, List<Integer> ranks, List<String> links, String summary) {
    public Diagnosis {
        ranks = List.copyOf(ranks);
        links = List.copyOf(links);
    }
}
