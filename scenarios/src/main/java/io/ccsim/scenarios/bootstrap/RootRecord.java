package io.ccsim.scenarios.bootstrap;

import java.util.List;

/**
 * A bootstrap root (the listener created by ncclGetUniqueId) and who reached it.
 *
 * @param attempt   elastic attempt
 * @param address   the listening address encoded in the unique id
 * @param uniqueId  the unique id
 * @param hostRank  global rank whose process runs the root
 * @param group     process group
 * @param initSeq   communicator counter of the init that created it
 * @param rootIndex index among the scalable-init roots (0 for a single root)
 * @param expected  global ranks that must check in
 * @param arrived   global ranks that did
 * @param createdPs creation time
 * @param closedPs  when it stopped listening (-1: still open at the end)
 */
public record RootRecord(int attempt, String address, String uniqueId, int hostRank, String group, int initSeq,
                         int rootIndex, List<Integer> expected, List<Integer> arrived, long createdPs, long closedPs) {}
