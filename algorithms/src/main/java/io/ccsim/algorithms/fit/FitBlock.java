package io.ccsim.algorithms.fit;

import io.ccsim.algorithms.measurements.MeasuredRow;
import java.util.List;
import java.util.function.Predicate;

/**
 * Parameters fitted together, on the rows they affect (one step of block coordinate descent).
 *
 * @param name   the block's name ({@code "cta LL"}, {@code "ring Simple"}, {@code "shared"} ...), for selection and progress
 * @param params the parameters of the block, in order
 * @param rows   the rows the block is fitted on
 */
record FitBlock(String name, List<FitParameter> params, Predicate<MeasuredRow> rows) {}
