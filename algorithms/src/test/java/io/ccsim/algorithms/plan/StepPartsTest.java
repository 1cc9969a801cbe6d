package io.ccsim.algorithms.plan;

import io.ccsim.algorithms.Algorithm;
import io.ccsim.algorithms.CollectiveOp;
import io.ccsim.algorithms.DataType;
import io.ccsim.algorithms.Protocol;
import io.ccsim.algorithms.cpu.CpuExecutor;
import io.ccsim.algorithms.data.ElementBuffer;
import io.ccsim.algorithms.cpu.PlanViolationException;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** A scatter's or gather's parts (NCCL's ScatterGatherOp): their sizes, and what the CPU executor accepts. */
class StepPartsTest {
    @Test
    void partsAreFullUpToTheCountThenTheRestThenEmpty() {
        StepCursor c = new StepCursor(8);
        c.set(Primitive.SEND, 0, 0, 37, 1);
        for (int i = 0; i < 8; i++) c.addSend(i);
        assertThat(c.hasParts()).isFalse();
        assertThat(c.partCount(3)).as("without parts every peer gets the count").isEqualTo(37);
        c.markParts(5, 5);
        int[] sizes = new int[8];
        for (int i = 0; i < 8; i++) sizes[i] = c.partCount(i);
        assertThat(sizes).containsExactly(5, 5, 5, 5, 5, 5, 5, 2);
        c.set(Primitive.SEND, 0, 0, 12, 1);
        assertThat(c.hasParts()).as("set clears the parts").isFalse();
        c.markParts(5, 100);
        for (int i = 0; i < 8; i++) sizes[i] = c.partCount(i);
        assertThat(sizes).containsExactly(5, 5, 2, 0, 0, 0, 0, 0);
        assertThat(c.partStride()).isEqualTo(100);
        assertThat(c.toString()).contains("parts=5/100");
        assertThatThrownBy(() -> c.encode(new long[StepCursor.ENCODED_LONGS], 0)).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> c.markParts(0, 5)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> c.markParts(6, 5)).as("parts may not overlap").isInstanceOf(IllegalArgumentException.class);
    }

    /** A rank's reduction to several peers in parts: no NCCL call does that, so the executor names the step. */
    @Test
    void theExecutorRefusesPartsOnAnythingButAScatterOrAGather() {
        CollectiveCall call = CollectiveCall.of(CollectiveOp.ALL_REDUCE, 64, DataType.FLOAT32, CommLayout.singleHost(3));
        Plan real = Planners.standard().plan(call, PlanOptions.of(Algorithm.RING, Protocol.SIMPLE, 1));
        Schedule bad = new Schedule() {
            @Override public int nLanes() { return 1; }

            @Override public int stepCount(int rank, int channel, int lane) { return 1; }

            @Override
            public void step(int rank, int channel, int lane, int index, StepCursor c) {
                c.set(Primitive.COPY_SEND, 0, 0, 8, 1);
                for (int p = 0; p < 3; p++) if (p != rank) c.addSend(p);
                c.markParts(4, 4);
            }

            @Override
            public void connections(ConnectionSink sink) {
                for (int f = 0; f < 3; f++) for (int t = 0; t < 3; t++) if (f != t) sink.accept(0, f, t);
            }

            @Override public long footprintBytes() { return 0; }
        };
        Plan plan = new Plan("bad-parts", call, real.options(), real.geometry(), bad);
        ElementBuffer[] in = new ElementBuffer[3];
        for (int r = 0; r < 3; r++) in[r] = new ElementBuffer(DataType.FLOAT32, 64);
        assertThatThrownBy(() -> new CpuExecutor().run(plan, in)).isInstanceOf(PlanViolationException.class)
                .hasMessageContaining("has parts, which only a rank's SEND to several peers (a scatter) or RECV from several");
    }
}
