package io.ccsim.algorithms.ddp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ccsim.algorithms.DataType;
import org.junit.jupiter.api.Test;

/** The layer-size model: parameter order, sizes and FLOP-derived times. */
class MlpModelTest {
    @Test
    void oneBlockAtOneFlopPerPicosecond() {
        // d 2, tokens 3: linear 0 is 2 -> 8, linear 1 is 8 -> 2, 2·3·16 = 96 FLOPs forward each; 1 TFLOP/s = 1 FLOP/ps.
        // Backward: linear 1 first, 2·96 = 192 ps; linear 0 (no input gradient) 96 ps more
        StepProfile p = MlpModel.parse("mlp:L=1,d=2,tokens=3", 1.0);
        assertThat(p.forwardPs()).isEqualTo(192);
        assertThat(p.backwardPs()).isEqualTo(288);
        assertThat(p.gradients()).extracting(Gradient::name).containsExactly("0.weight", "0.bias", "2.weight", "2.bias");
        assertThat(p.gradients()).extracting(Gradient::bytes).containsExactly(64L, 32L, 64L, 8L);
        assertThat(p.gradients()).extracting(Gradient::readyPs).containsExactly(288L, 288L, 192L, 192L);
        assertThat(p.readyOrder()).containsExactly(3, 2, 1, 0);
    }

    @Test
    void theMeasuredShapeAtItsMeasuredRate() {
        // 24 blocks of d 1024 on 4096 tokens: 95 x 34.36 GFLOP backward; at 215 TFLOP/s 15.18 ms (measured 15.33)
        StepProfile p = MlpModel.parse("mlp:L=24,d=1024,tokens=4096,dtype=bf16", 215);
        assertThat(p.gradients()).hasSize(96);
        assertThat(p.dtype()).isEqualTo(DataType.BFLOAT16);
        assertThat(p.totalBytes()).isEqualTo(24L * (2 * 4 * 1024 * 1024 + 5 * 1024) * 2);
        assertThat(p.backwardPs() / 1e9).isCloseTo(95 * 2.0 * 4096 * 1024 * 4096 / 215e12 * 1e3, org.assertj.core.data.Offset.offset(1e-6));
    }

    @Test
    void badSpecsSayWhatIsValid() {
        assertThatThrownBy(() -> MlpModel.parse("cnn:L=1", 1)).hasMessageContaining("valid: mlp:L=LAYERS,d=WIDTH,tokens=TOKENS");
        assertThatThrownBy(() -> MlpModel.parse("mlp:L=1,d=2", 1)).hasMessageContaining("needs L, d and tokens");
        assertThatThrownBy(() -> MlpModel.parse("mlp:L=0,d=2,tokens=1", 1)).hasMessageContaining("L=0; valid: a whole number from 1");
        assertThatThrownBy(() -> MlpModel.parse("mlp:L=1,d=2,tokens=1,depth=3", 1)).hasMessageContaining("unknown key 'depth'");
        assertThatThrownBy(() -> MlpModel.parse("mlp:L=1,d=2,tokens=1", 0)).hasMessageContaining("tflops must be > 0");
    }
}
