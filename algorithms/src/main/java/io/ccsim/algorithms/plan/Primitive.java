package io.ccsim.algorithms.plan;

/**
 * NCCL's primitive operations (src/device/primitives.h, prims_simple.h / prims_ll.h /
 * prims_ll128.h), one slice each. Notation for a step with {@code count} elements:
 * {@code in} = the rank's input buffer at {@code srcOffset}, {@code out} = its output buffer at
 * {@code dstOffset}, {@code recv(p)} = the next slice arriving on the connection from peer p
 * (which the step consumes, freeing its slots), {@code send(v)} = writing v into the next free
 * slots of the connection to every send peer. {@code pre}/{@code post} are the reduction's
 * pre-/post-operators (avg: see {@code data.Reduction}); they are applied only in collectives
 * that reduce (all_reduce, reduce_scatter, reduce); elsewhere they are the identity.
 * Values are combined in the order input first, then receive peers in cursor order.
 */
public enum Primitive {
    /** v = pre(in); send(v). Reads: input. Writes: nothing locally. */
    SEND(0, true, true, false),
    /** v = recv(p0); out = v. */
    RECV(1, false, false, true),
    /** v = pre(in) ⊕ recv(p0) ⊕ ... ⊕ recv(pk); send(v). */
    RECV_REDUCE_SEND(-1, true, true, false),
    /** v = recv(p0); out = v; send(v). */
    RECV_COPY_SEND(1, true, false, true),
    /** v = post(pre(in) ⊕ recv(p0) ⊕ ...); out = v. The final reduction at its destination. */
    RECV_REDUCE_COPY(-1, false, true, true),
    /** v = post(pre(in) ⊕ recv(p0) ⊕ ...); out = v; send(v). Ring all-reduce's owner step, tree root. */
    RECV_REDUCE_COPY_SEND(-1, true, true, true),
    /** v = in (raw, no pre); out = v; send(v). The root's step in broadcast/all-gather. */
    COPY_SEND(0, true, true, true),
    /** out = in (raw). No connection. One-rank collectives and a rank's own all-to-all block. */
    LOCAL_COPY(0, false, true, true),
    /** out = post(pre(in)). No connection. One-rank reductions (NCCL's onerank reduce). */
    LOCAL_REDUCE(0, false, true, true),
    /**
     * v = recv(p0) ⊕ ... ⊕ recv(pk); send(v). An NVLink switch's in-network reduction (a {@code multimem.ld_reduce}
     * serves the issuing head with the sum of every GPU's copy): a switch actor's step, no buffers, no pre/post
     * operator (NVLS reduces only sum, min and max, for which both are the identity).
     */
    MULTIMEM_REDUCE(-1, true, false, false),
    /**
     * v = recv(p0); send(v) to every send peer. An NVLink switch's multicast (a {@code multimem.st} by the head is
     * written into every GPU of the domain): a switch actor's step, no buffers.
     */
    MULTIMEM_FORWARD(1, true, false, false),
    /**
     * v = recv(p0) ⊕ ... ⊕ recv(pk); send(v). A rank that reduces what it receives without its own input, which
     * an earlier in-switch reduction already holds: NVLSTree's head reducing the node's {@code multimem.ld_reduce}
     * with its tree children. No pre/post operator (NVLS reduces only sum, min and max).
     */
    RECV_REDUCE_FORWARD(-1, true, false, false),
    /**
     * v = recv(p0) ⊕ ... ⊕ recv(pk); send(v) to every send peer. A SHARP-capable network switch's aggregation of one
     * CollNet slot: one slice from the head GPU of every host on one NIC rail, the reduced slice back to each of them
     * (the SHARP plugin's {@code collNetIallreduce}): a switch actor's step, no buffers, no pre/post operator (the
     * GPUs apply them, NCCL maps avg to sum for the network).
     */
    SHARP_REDUCE(-1, true, false, false),
    /**
     * v = post(recv(p0)); out = v; send(v) (no send peer: only the output). A CollNet head's receipt of the network's
     * reduced slice, with the reduction's post-operator (NCCL's {@code directRecvCopyDirectSend(postOp=true)} and
     * {@code recv(postOp=true)}), then its broadcast to the other GPUs of its host.
     */
    RECV_POST_COPY_SEND(1, true, false, true),
    /**
     * v = recv(p0); send(v) to every send peer. A SHARP-capable network switch's all-gather of one CollNet slot (the
     * SHARP plugin's {@code collNetIallgather}): the slot covers part of one host's block of the gathered buffer, so
     * its data comes from that host's head GPU on the rail and goes to the head of every host, that one included: a
     * switch actor's step, no buffers.
     */
    SHARP_GATHER(1, true, false, false);

    private final int fixedRecv; // -1: one or more
    private final boolean sends;
    private final boolean readsInput;
    private final boolean writesOutput;

    Primitive(int fixedRecv, boolean sends, boolean readsInput, boolean writesOutput) {
        this.fixedRecv = fixedRecv;
        this.sends = sends;
        this.readsInput = readsInput;
        this.writesOutput = writesOutput;
    }

    /** True if the primitive receives from at least one peer. */
    public boolean receives() { return fixedRecv != 0; }

    /** True if the primitive receives from several peers and reduces them (tree fan-in up to 3). */
    public boolean reduces() { return fixedRecv < 0; }

    /** True if the primitive writes to its send peers. */
    public boolean sends() { return sends; }

    /** True if it reads the rank's input buffer at srcOffset. */
    public boolean readsInput() { return readsInput; }

    /** True if it writes the rank's output buffer at dstOffset. */
    public boolean writesOutput() { return writesOutput; }

    /** True for LOCAL_COPY and LOCAL_REDUCE, which touch no connection. */
    public boolean isLocal() { return this == LOCAL_COPY || this == LOCAL_REDUCE; }

    /**
     * True for an NVLink switch's multicast (MULTIMEM_FORWARD): one store by the head that the NVSwitch replicates into
     * every destination GPU, so its sends are one operation, not one per destination.
     */
    public boolean isMulticast() { return this == MULTIMEM_FORWARD; }

    /**
     * True for the steps of a switch actor (MULTIMEM_REDUCE, MULTIMEM_FORWARD, SHARP_REDUCE, SHARP_GATHER): no thread
     * block, no buffers.
     */
    public boolean isSwitch() {
        return this == MULTIMEM_REDUCE || this == MULTIMEM_FORWARD || this == SHARP_REDUCE || this == SHARP_GATHER;
    }
}
