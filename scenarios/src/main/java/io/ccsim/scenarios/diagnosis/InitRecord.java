package io.ccsim.scenarios.diagnosis;

import java.util.List;

/**
 * One rank's attempt to create one NCCL communicator (ProcessGroupNCCL::initNCCLComm), for the
 * analyzer.
 *
 * @param attempt   elastic attempt
 * @param rank      global rank
 * @param group     process group
 * @param commKey   device key of the communicator within the group
 * @param initSeq   the group's communicator counter for this init (ncclCommCounter_), from 0
 * @param scalable  whether ncclCommInitRankScalable with several roots was used
 * @param keys      full store keys the unique ids were read from (one per root)
 * @param ids       the unique ids obtained (one per root)
 * @param commId    hash of the ids, as NCCL prints commId
 * @param startPs   when the init began
 * @param endPs     when it ended (-1 if it never did)
 * @param result    "ok", "stalled", "error: ...", or "pending"
 */
public record InitRecord(int attempt, int rank, String group, String commKey, int initSeq, boolean scalable,
                         List<String> keys, List<String> ids, long commId, long startPs, long endPs, String result) {}
