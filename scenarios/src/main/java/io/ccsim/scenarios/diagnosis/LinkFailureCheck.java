package io.ccsim.scenarios.diagnosis;

import io.ccsim.scenarios.cluster.CollectiveStats;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@link Category#LINK_FAILURE}: links whose outage outlasted the IB transport's retries (the rank
 * that got the error), and links that went down for less and cost the collectives crossing them
 * time.
 */
final class LinkFailureCheck extends Check {
    LinkFailureCheck(Trace t) { super(t); }

    @Override
    void run() {
        Set<String> failedLinks = new LinkedHashSet<>();
        for (RankEvent e : t.events()) {
            if (e.kind().equals("NET_ERROR")) {
                int i = e.text().indexOf("on link ");
                String link = i < 0 ? "?" : e.text().substring(i + 8, e.text().indexOf(' ', i + 8));
                failedLinks.add(link);
                add(Category.LINK_FAILURE, List.of(e.rank()), List.of(link), "link " + link + " stayed down longer than the IB"
                        + " transport retries last (NCCL_IB_TIMEOUT=" + t.settings().ibTimeout() + ": " + s(t.settings().ibAckTimeoutPs())
                        + " per try, NCCL_IB_RETRY_CNT=" + t.settings().ibRetryCount() + ": " + s(t.settings().ibGiveUpPs())
                        + " in all); rank " + e.rank() + " got: " + e.text());
            }
        }
        for (Map.Entry<String, Double> d : t.degradedLinks().entrySet()) {
            if (d.getValue() == 0.0 && !failedLinks.contains(d.getKey())) {
                long outages = t.faults().stream().filter(f -> f.contains("link " + d.getKey() + " down")).count();
                long lost = 0;
                int hit = 0;
                for (CollectiveStats c : t.collectives()) {
                    if (c.healthyPs() > 0 && c.durationPs() > 1.2 * c.healthyPs()) {
                        lost += c.durationPs() - c.healthyPs();
                        hit++;
                    }
                }
                add(Category.LINK_FAILURE, List.of(), List.of(d.getKey()), "link " + d.getKey() + " went down " + outages
                        + " time(s), each shorter than the IB give-up time (" + s(t.settings().ibGiveUpPs()) + "): the transport"
                        + " retransmitted and recovered, but traffic resumes only at the next retransmission (every "
                        + s(t.settings().ibAckTimeoutPs()) + ", NCCL_IB_TIMEOUT=" + t.settings().ibTimeout() + "); " + hit
                        + " collective(s) crossing it lost " + s(lost) + " in all");
            }
        }
    }
}
