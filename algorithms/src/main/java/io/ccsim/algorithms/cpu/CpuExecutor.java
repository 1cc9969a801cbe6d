package io.ccsim.algorithms.cpu;

import io.ccsim.algorithms.Protocol;
import io.ccsim.algorithms.data.ElementBuffer;
import io.ccsim.algorithms.data.Reduction;
import io.ccsim.algorithms.plan.CollectiveCall;
import io.ccsim.algorithms.plan.Plan;
import io.ccsim.algorithms.plan.Primitive;
import io.ccsim.algorithms.plan.ProtocolGeometry;
import io.ccsim.algorithms.plan.StepCursor;

import java.util.ArrayList;
import java.util.List;

/**
 * Executes a {@link Plan} on real data, slot by slot, single-threaded and deterministic.
 *
 * <p>Model: every connection (channel, from, to) of the plan owns {@code slotsPerConnection}
 * slots (NCCL_STEPS = 8 unless a test asks for fewer) with a tail (slots written by the sender) and
 * a head (slots freed by the receiver), as NCCL's connection FIFOs do. A step occupying s slots
 * may run only when, on every connection it receives from, a slice is present (tail − head ≥ s)
 * and, on every connection it sends to, s slots are free (tail + s − head ≤ slots); it then runs
 * atomically. Every (rank, channel, lane) is a cooperative task; the scheduler passes over the
 * tasks in a fixed order (rank, channel, lane ascending) and runs each as far as it can before it
 * blocks, so that senders run ahead and fill every slot they are allowed to (flow-control bugs
 * then corrupt data or deadlock instead of passing by luck). A
 * pass in which no task progresses while some are unfinished raises {@link PlanDeadlockException}
 * naming every blocked step and the slot it waits for.
 *
 * <p>The receiver checks that each slice it reads has the element count and slot count it
 * expects, and senders check that a slice fits its slots (payload ≤ slots × slot payload bytes),
 * so a plan whose two ends disagree fails with {@link PlanViolationException}. Slices travel in the
 * protocol's wire format ({@link WireCodec}: LL 4 B data + 4 B flag units, LL128 120 B data + 8 B
 * flag lines, Simple raw bytes); receivers check every flag against the step they expect, so a
 * read of a slot the sender has not written fails even if the slot counters were wrong. Wire
 * bytes are accounted in the same format.
 *
 * <p>Switch actors ({@link Plan#nActors()}) are tasks like ranks, after them; they own no buffers and run only
 * switch primitives (an NVLink switch's reduction of every GPU's slice, its multicast to every GPU; a SHARP network
 * switch's reduction of every host's head slice, back to each or to one, and its all-gather of one host's slice to
 * every host's head), so the switch that reduces is checked like any rank.
 * Connections are keyed by their connection channel ({@link Plan#connectionChannel}), so a step's connection index
 * picks NCCL's connection 0 or 1.
 *
 * <p>A step marked {@link StepCursor#fromOutput()} takes its local operand from the rank's output at its output
 * offset instead of the input (PAT forwards a received block again, or adds to a partial sum kept there).
 *
 * <p>One executor may run many plans; runs share no state.
 */
public final class CpuExecutor {
    private final int slotsOverride;

    /** An executor with NCCL_STEPS = 8 slots per connection, as the plans assume. */
    public CpuExecutor() {
        this.slotsOverride = 0;
    }

    /**
     * An executor with {@code slotsPerConnection} slots per connection instead of NCCL_STEPS,
     * to show how flow control fails when slots are too few (1..NCCL_STEPS).
     */
    public CpuExecutor(int slotsPerConnection) {
        if (slotsPerConnection < 1 || slotsPerConnection > Protocol.NCCL_STEPS) {
            throw new IllegalArgumentException("slotsPerConnection must be in 1.." + Protocol.NCCL_STEPS + ", got "
                    + slotsPerConnection);
        }
        this.slotsOverride = slotsPerConnection;
    }

    /**
     * Runs {@code plan}. {@code inputs[r]} and {@code outputs[r]} are rank r's buffers, of the
     * plan's dtype, with at least {@link CollectiveCall#inputCount()} and
     * {@link CollectiveCall#outputCount()} elements. Outputs are written in place.
     */
    public ExecutionStats run(Plan plan, ElementBuffer[] inputs, ElementBuffer[] outputs) {
        return new Run(plan, inputs, outputs, slotsOverride == 0 ? Protocol.NCCL_STEPS : slotsOverride).execute();
    }

    /** Allocates outputs, runs, and returns them. */
    public ElementBuffer[] run(Plan plan, ElementBuffer[] inputs) {
        CollectiveCall call = plan.call();
        ElementBuffer[] out = new ElementBuffer[call.nRanks()];
        for (int r = 0; r < out.length; r++) out[r] = new ElementBuffer(call.dtype(), Math.toIntExact(call.outputCount()));
        run(plan, inputs, out);
        return out;
    }

    /** One connection's slots. */
    private static final class Conn {
        final int channel;
        final int from;
        final int to;
        final long[][] slotData;
        final int[] slotCount;
        final int[] slotSlots;
        long tail;
        long head;

        Conn(int channel, int from, int to, int slots) {
            this.channel = channel;
            this.from = from;
            this.to = to;
            this.slotData = new long[slots][]; // allocated on first use, sized to the slices actually sent
            this.slotCount = new int[slots];
            this.slotSlots = new int[slots];
        }
    }

    private static final class Task {
        final int rank;
        final int channel;
        final int lane;
        final int steps;
        int next;
        final StepCursor cursor;
        boolean loaded;

        Task(int rank, int channel, int lane, int steps, int maxPeers) {
            this.rank = rank;
            this.channel = channel;
            this.lane = lane;
            this.steps = steps;
            this.cursor = new StepCursor(maxPeers);
        }
    }

    private static final class Run {
        private final Plan plan;
        private final ElementBuffer[] in;
        private final ElementBuffer[] out;
        private final int slots;
        private final int n;
        private final int nActors;
        private final int nChannels;
        private final Reduction red;
        private final boolean pre;
        private final boolean post;
        private final ProtocolGeometry geo;
        private final int elt;
        private final int capacityElems;
        private final List<Conn> conns = new ArrayList<>();
        private final ConnectionIndex index;
        /** A step's values and each receive peer's slice: the slots' capacity, more for a direct step's. */
        private long[] scratch;
        private final Conn[] recvConns;
        private final Conn[] sendConns;
        private final long[][] recvData;
        private final WireCodec codec;
        private long steps;
        private long slotsWritten;
        private long payloadBytes;
        private long wireBytes;
        private int maxInUse;

        Run(Plan plan, ElementBuffer[] inputs, ElementBuffer[] outputs, int slots) {
            this.plan = plan;
            CollectiveCall call = plan.call();
            this.n = call.nRanks();
            this.nActors = plan.nActors();
            this.nChannels = plan.nChannels();
            int maxPeers = Math.max(StepCursor.MAX_PEERS, plan.maxPeers());
            this.recvConns = new Conn[maxPeers];
            this.sendConns = new Conn[maxPeers];
            this.recvData = new long[maxPeers][];
            check(inputs, call.inputCount(), "inputs");
            check(outputs, call.outputCount(), "outputs");
            this.in = inputs;
            this.out = outputs;
            this.slots = slots;
            this.red = call.isReduction() ? Reduction.of(call.dtype(), call.redop(), n) : null;
            this.pre = red != null && red.hasPreOp();
            this.post = red != null && red.hasPostOp();
            this.geo = plan.geometry();
            this.elt = call.dtype().bytes();
            this.capacityElems = (int) Math.max(1, geo.sliceCapacityBytes() / elt);
            long nc = plan.connectionCount();
            this.index = new ConnectionIndex((int) Math.min(1 << 24, Math.max(4, nc)));
            plan.forEachConnection((ch, f, t) -> {
                long key = key(ch, f, t);
                if (index.putIfAbsent(key, conns.size()) == conns.size()) {
                    conns.add(new Conn(ch, f, t, slots));
                }
            });
            this.scratch = new long[capacityElems];
            for (int k = 0; k < recvData.length; k++) recvData[k] = new long[capacityElems];
            this.codec = new WireCodec(geo.protocol(), elt);
        }

        private void check(ElementBuffer[] bufs, long need, String what) {
            CollectiveCall call = plan.call();
            if (bufs == null || bufs.length != call.nRanks()) {
                throw new IllegalArgumentException(what + " must have one buffer per rank (" + call.nRanks() + "), got "
                        + (bufs == null ? "null" : bufs.length));
            }
            for (int r = 0; r < bufs.length; r++) {
                if (bufs[r] == null) throw new IllegalArgumentException(what + "[" + r + "] is null");
                if (bufs[r].dtype() != call.dtype()) {
                    throw new IllegalArgumentException(what + "[" + r + "] holds " + bufs[r].dtype() + ", the call is "
                            + call.dtype());
                }
                if (bufs[r].length() < need) {
                    throw new IllegalArgumentException(what + "[" + r + "] has " + bufs[r].length() + " elements; "
                            + call.op().cliName() + " of count " + call.count() + " on " + call.nRanks()
                            + " ranks needs " + need);
                }
            }
        }

        private long key(int ch, int from, int to) {
            return ((long) ch * nActors + from) * nActors + to;
        }

        ExecutionStats execute() {
            List<Task> tasks = new ArrayList<>();
            for (int r = 0; r < nActors; r++)
                for (int c = 0; c < nChannels; c++)
                    for (int l = 0; l < plan.nLanes(); l++) {
                        int sc = plan.stepCount(r, c, l);
                        if (sc > 0) tasks.add(new Task(r, c, l, sc, plan.maxPeers()));
                    }
            Task[] live = tasks.toArray(new Task[0]);
            int nLive = live.length;
            long passes = 0;
            while (nLive > 0) {
                passes++;
                boolean progress = false;
                int w = 0;
                for (int i = 0; i < nLive; i++) {
                    Task t = live[i];
                    while (t.next < t.steps && tryStep(t)) progress = true;
                    if (t.next < t.steps) live[w++] = t;
                }
                nLive = w;
                if (!progress && nLive > 0) throw deadlock(live, nLive);
            }
            return new ExecutionStats(steps, passes, conns.size(), slotsWritten, payloadBytes, wireBytes, maxInUse);
        }

        private Conn conn(Task t, int connChannel, int from, int to) {
            int i = index.get(key(connChannel, from, to));
            if (i < 0) {
                throw violation(t, "uses connection " + from + "->" + to + " on channel " + t.channel
                        + (connChannel != t.channel ? " (connection 1)" : "") + " which the plan does not declare");
            }
            return conns.get(i);
        }

        private boolean tryStep(Task t) {
            StepCursor c = t.cursor;
            if (!t.loaded) {
                plan.step(t.rank, t.channel, t.lane, t.next, c);
                t.loaded = true;
            }
            int s = c.slots();
            int nr = c.nRecv();
            int ns = c.nSend();
            int rch = plan.connectionChannel(t.channel, c.recvConn());
            int sch = plan.connectionChannel(t.channel, c.sendConn());
            for (int k = 0; k < nr; k++) {
                Conn cn = conn(t, rch, c.recvPeer(k), t.rank);
                if (cn.tail - cn.head < s) return false;
                recvConns[k] = cn;
            }
            for (int k = 0; k < ns; k++) {
                Conn cn = conn(t, sch, t.rank, c.sendPeer(k));
                if (cn.tail + s - cn.head > slots) return false;
                sendConns[k] = cn;
            }
            execute(t, c, nr, ns);
            t.next++;
            t.loaded = false;
            steps++;
            return true;
        }

        private void execute(Task t, StepCursor c, int nr, int ns) {
            Primitive p = c.prim();
            int cnt = c.count();
            if (cnt < 0) throw violation(t, "has a negative element count " + cnt);
            if (c.hasParts()) {
                executeParts(t, c, nr, ns);
                return;
            }
            if (cnt > capacityElems && !p.isLocal() && !c.direct()) { // a direct step writes into the receiver's buffer
                throw violation(t, "moves " + cnt + " elements but its " + c.slots() + " slot(s) hold " + capacityElems);
            }
            if (cnt > scratch.length) {
                scratch = new long[cnt];
                for (int k = 0; k < recvData.length; k++) recvData[k] = new long[cnt];
            }
            boolean switchActor = t.rank >= n;
            if (switchActor != p.isSwitch()) {
                throw violation(t, switchActor ? "is a switch actor's step with a rank's primitive"
                        : "is a rank's step with a switch primitive");
            }
            boolean fromOut = c.fromOutput();
            if (fromOut && (switchActor || (p != Primitive.SEND && !p.reduces()))) {
                throw violation(t, "reads its operand from the output, which only a rank's SEND or reduction may");
            }
            if (cnt > 0 && fromOut) bounds(t, out[t.rank], c.dstOffset(), cnt, "output");
            else if (cnt > 0 && p.readsInput()) bounds(t, in[t.rank], c.srcOffset(), cnt, "input");
            if (cnt > 0 && p.writesOutput()) bounds(t, out[t.rank], c.dstOffset(), cnt, "output");
            ElementBuffer outBuf = switchActor ? null : out[t.rank];
            ElementBuffer inBuf = switchActor ? null : fromOut ? outBuf : in[t.rank];
            int src = (int) (fromOut ? c.dstOffset() : c.srcOffset());
            boolean preIn = pre && !fromOut; // an operand read back from the output had its pre-operator already
            int dst = (int) c.dstOffset();
            if (nr > 0) received(t, c, nr);
            compute(t, p, cnt, nr, inBuf, src, outBuf, dst, preIn);
            // Free the received slots only now: the data was read in place.
            for (int k = 0; k < nr; k++) recvConns[k].head += c.slots();
            if (p.sends()) {
                for (int k = 0; k < ns; k++) send(t, c, sendConns[k], scratch, cnt);
            }
        }

        /**
         * A scatter (a rank's SEND to several peers, part i to peer i) or a gather (a RECV from several, part i from
         * peer i into the output), {@link StepCursor#hasParts()}.
         */
        private void executeParts(Task t, StepCursor c, int nr, int ns) {
            Primitive p = c.prim();
            boolean scatter = p == Primitive.SEND && nr == 0 && ns > 0 && !c.fromOutput() && !c.memory();
            boolean gather = p == Primitive.RECV && ns == 0 && nr > 0 && !c.memory();
            if (!scatter && !gather || t.rank >= n) {
                throw violation(t, "has parts, which only a rank's SEND to several peers (a scatter) or RECV from several"
                        + " (a gather) may have");
            }
            int peers = scatter ? ns : nr;
            if (c.partElems() > capacityElems) {
                throw violation(t, "moves parts of " + c.partElems() + " elements but its " + c.slots() + " slot(s) hold "
                        + capacityElems);
            }
            if ((long) peers * c.partElems() < c.count()) {
                throw violation(t, "has " + c.count() + " elements in parts of " + c.partElems() + " for " + peers + " peers");
            }
            ElementBuffer buf = scatter ? in[t.rank] : out[t.rank];
            long base = scatter ? c.srcOffset() : c.dstOffset();
            for (int k = 0; k < peers; k++) {
                int pc = c.partCount(k);
                if (pc > 0) bounds(t, buf, base + k * c.partStride(), pc, scatter ? "input" : "output");
            }
            if (gather) {
                received(t, c, nr);
                long[][] recv = recvData;
                for (int k = 0; k < nr; k++) {
                    int at = (int) (base + k * c.partStride());
                    for (int i = 0, pc = c.partCount(k); i < pc; i++) buf.setBits(at + i, recv[k][i]);
                    recvConns[k].head += c.slots();
                }
                return;
            }
            long[] v = scratch;
            for (int k = 0; k < ns; k++) {
                int at = (int) (base + k * c.partStride());
                int pc = c.partCount(k);
                for (int i = 0; i < pc; i++) {
                    long x = buf.getBits(at + i);
                    v[i] = pre ? red.preOp(x) : x;
                }
                send(t, c, sendConns[k], v, pc);
            }
        }

        /** Computes step {@code p}'s values into the scratch slice (what it sends) and writes its output. */
        private void compute(Task t, Primitive p, int cnt, int nr, ElementBuffer inBuf, int src, ElementBuffer outBuf,
                             int dst, boolean preIn) {
            long[] v = scratch;
            long[][] recv = recvData;
            switch (p) {
                case LOCAL_COPY:
                    for (int i = 0; i < cnt; i++) outBuf.setBits(dst + i, inBuf.getBits(src + i));
                    break;
                case LOCAL_REDUCE:
                    for (int i = 0; i < cnt; i++) {
                        long x = inBuf.getBits(src + i);
                        if (pre) x = red.preOp(x);
                        if (post) x = red.postOp(x);
                        outBuf.setBits(dst + i, x);
                    }
                    break;
                case SEND:
                    for (int i = 0; i < cnt; i++) {
                        long x = inBuf.getBits(src + i);
                        v[i] = preIn ? red.preOp(x) : x;
                    }
                    break;
                case COPY_SEND:
                    for (int i = 0; i < cnt; i++) {
                        long x = inBuf.getBits(src + i);
                        v[i] = x;
                        outBuf.setBits(dst + i, x);
                    }
                    break;
                case RECV:
                    for (int i = 0; i < cnt; i++) outBuf.setBits(dst + i, recv[0][i]);
                    break;
                case RECV_COPY_SEND:
                    for (int i = 0; i < cnt; i++) {
                        long x = recv[0][i];
                        v[i] = x;
                        outBuf.setBits(dst + i, x);
                    }
                    break;
                case RECV_REDUCE_SEND:
                case RECV_REDUCE_COPY:
                case RECV_REDUCE_COPY_SEND:
                    reduceWithInput(t, p != Primitive.RECV_REDUCE_SEND, cnt, nr, inBuf, src, outBuf, dst, preIn);
                    break;
                case RECV_POST_COPY_SEND:
                    for (int i = 0; i < cnt; i++) {
                        long x = recv[0][i];
                        if (post) x = red.postOp(x);
                        v[i] = x;
                        outBuf.setBits(dst + i, x);
                    }
                    break;
                case MULTIMEM_REDUCE:
                case RECV_REDUCE_FORWARD:
                case SHARP_REDUCE:
                    if (red == null) throw violation(t, "reduces in a collective without a reduction");
                    for (int i = 0; i < cnt; i++) {
                        long x = recv[0][i];
                        for (int k = 1; k < nr; k++) x = red.reduce(x, recv[k][i]);
                        v[i] = x;
                    }
                    break;
                case MULTIMEM_FORWARD:
                case SHARP_GATHER:
                    System.arraycopy(recv[0], 0, v, 0, cnt);
                    break;
                default:
                    throw new AssertionError(p);
            }
        }

        /** The reductions that read the rank's operand: pre(in) ⊕ received, post-operator and output when {@code copy}. */
        private void reduceWithInput(Task t, boolean copy, int cnt, int nr, ElementBuffer inBuf, int src,
                                     ElementBuffer outBuf, int dst, boolean preIn) {
            if (red == null) throw violation(t, "reduces in a collective without a reduction");
            long[] v = scratch;
            long[][] recv = recvData;
            for (int i = 0; i < cnt; i++) {
                long x = inBuf.getBits(src + i);
                if (preIn) x = red.preOp(x);
                for (int k = 0; k < nr; k++) x = red.reduce(x, recv[k][i]);
                if (copy) {
                    if (post) x = red.postOp(x);
                    outBuf.setBits(dst + i, x);
                }
                v[i] = x;
            }
        }

        /** Reads each receive connection's slice into recvData, checking its slots, count and flags. */
        private void received(Task t, StepCursor c, int nr) {
            long[][] r = recvData;
            for (int k = 0; k < nr; k++) {
                Conn cn = recvConns[k];
                int cnt = c.partCount(k);
                int pos = (int) (cn.head % slots);
                if (cn.slotData[pos] == null) {
                    throw violation(t, "reads a slot from rank " + cn.from + " that was never written");
                }
                if (cn.slotSlots[pos] != c.slots()) {
                    throw violation(t, "expects a slice of " + c.slots() + " slot(s) from rank " + cn.from
                            + " but the slice there occupies " + cn.slotSlots[pos]);
                }
                if (cn.slotCount[pos] != cnt) {
                    throw violation(t, "expects " + cnt + " elements from rank " + cn.from + " but the slice holds "
                            + cn.slotCount[pos]);
                }
                int bad = codec.decode(cn.slotData[pos], cnt, (int) (cn.head + 1), r[k]);
                if (bad >= 0) {
                    throw violation(t, "reads a slot from rank " + cn.from + " that the sender has not written: wire line "
                            + bad + " carries a flag other than step " + (cn.head + 1));
                }
            }
        }

        private void send(Task t, StepCursor c, Conn cn, long[] v, int cnt) {
            int pos = (int) (cn.tail % slots);
            long[] slot = cn.slotData[pos];
            int words = codec.wireLongs(cnt);
            if (slot == null || slot.length < words) {
                slot = new long[Math.max(words, 16)];
                cn.slotData[pos] = slot;
            }
            codec.encode(v, cnt, (int) (cn.tail + 1), slot);
            cn.slotCount[pos] = cnt;
            cn.slotSlots[pos] = c.slots();
            cn.tail += c.slots();
            maxInUse = (int) Math.max(maxInUse, cn.tail - cn.head);
            slotsWritten += c.slots();
            long bytes = (long) cnt * elt;
            payloadBytes += bytes;
            wireBytes += geo.wireBytes(bytes);
        }

        private void bounds(Task t, ElementBuffer b, long off, int cnt, String what) {
            if (off < 0 || off + cnt > b.length()) {
                throw violation(t, "accesses " + what + " elements [" + off + ", " + (off + cnt) + ") of a buffer of "
                        + b.length());
            }
        }

        private PlanViolationException violation(Task t, String what) {
            return new PlanViolationException(plan + ": rank " + t.rank + " channel " + t.channel + " lane " + t.lane
                    + " step " + t.next + " (" + t.cursor + ") " + what);
        }

        private PlanDeadlockException deadlock(Task[] live, int nLive) {
            StringBuilder sb = new StringBuilder(plan + ": deadlock, no step can progress; blocked:");
            int shown = 0;
            for (int i = 0; i < nLive && shown < 32; i++, shown++) {
                Task t = live[i];
                StepCursor c = t.cursor;
                sb.append("\n  rank ").append(t.rank).append(" channel ").append(t.channel).append(" lane ").append(t.lane)
                        .append(" step ").append(t.next).append('/').append(t.steps).append(' ').append(c);
                for (int k = 0; k < c.nRecv(); k++) {
                    Conn cn = conns.get(index.get(key(plan.connectionChannel(t.channel, c.recvConn()), c.recvPeer(k), t.rank)));
                    if (cn.tail - cn.head < c.slots()) {
                        sb.append(" waits for data from ").append(cn.from).append(" (").append(cn.tail - cn.head)
                                .append(" of ").append(c.slots()).append(" slots filled)");
                    }
                }
                for (int k = 0; k < c.nSend(); k++) {
                    Conn cn = conns.get(index.get(key(plan.connectionChannel(t.channel, c.sendConn()), t.rank, c.sendPeer(k))));
                    if (cn.tail + c.slots() - cn.head > slots) {
                        sb.append(" waits for free slots to ").append(cn.to).append(" (").append(slots - (cn.tail - cn.head))
                                .append(" free, needs ").append(c.slots()).append(')');
                    }
                }
            }
            if (nLive > shown) sb.append("\n  ... and ").append(nLive - shown).append(" more");
            return new PlanDeadlockException(sb.toString());
        }
    }
}
