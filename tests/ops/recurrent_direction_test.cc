// recurrent::Direction and recurrent::direction_weights: what RNN, GRU and LSTM take from the
// inputs for one direction, on two directions of a 3-gate (GRU-shaped) problem, against
// values worked out by hand.
#include <gtest/gtest.h>

#include <vector>

#include "model_builder.h"
#include "ops/onnx/recurrent.h"
#include "util/thread_pool.h"

namespace bough::ops::recurrent {
namespace {

using test::f32;

using Floats = std::vector<float>;

// seq 2, batch 1, input 2, hidden 1, 3 gates, both directions.
struct Problem {
  Inputs in;
  Config cfg;
  States st;
  explicit Problem(bool with_bias) {
    in.type = ElemType::Float;
    in.seq = 2;
    in.batch = 1;
    in.input = 2;
    in.hidden = 1;
    in.x = f32({2, 1, 2}, {1, 2, 3, 4});  // X_0 = (1, 2), X_1 = (3, 4)
    // W: direction 0 rows (1, 0), (0, 1), (1, 1); direction 1 rows (2, 0), (0, 2), (1, -1).
    in.w = f32({2, 3, 2}, {1, 0, 0, 1, 1, 1, 2, 0, 0, 2, 1, -1});
    in.r = f32({2, 3, 1}, {1, 2, 3, 4, 5, 6});
    if (with_bias)  // Wb then Rb for each direction
      in.b = f32({2, 6}, {0.5f, 0.25f, 0.125f, 1, 2, 3, 10, 20, 30, 40, 50, 60});
    in.lens = {2};
    cfg.dirs = 2;
    cfg.per_direction = 2;
    for (auto k : {Activation::Kind::Relu, Activation::Kind::Tanh, Activation::Kind::Sigmoid,
                   Activation::Kind::Elu})
      cfg.acts.push_back(Activation{k, 0, 0});
    st.y = Tensor::zeros(ElemType::Float, Dims{2, 2, 1, 1});  // [seq, dirs, batch, hidden]
    st.yh = f32({2, 1, 1}, {7, 8});
  }
};

Floats elements(const float* p, int64_t n) { return Floats(p, p + n); }

Weights<float> weights_of(const Problem& p, int d) {
  return direction_weights<float>(p.in.w, p.in.r, p.in.b, d, 3);
}

TEST(RecurrentDirection, ProjectsXThroughTheDirectionsW) {
  Problem p(true);
  util::ThreadPool pool(1);
  // Direction 0: X_0·Wᵀ = (1, 2, 3), X_1·Wᵀ = (3, 4, 7).
  const Weights<float> w0 = weights_of(p, 0);
  EXPECT_EQ(w0.wt, (Floats{1, 0, 1, 0, 1, 1}));  // Wᵀ, [input 2, G 3]
  const Direction<float> d0(p.in, p.cfg, p.st, 0, w0, pool);
  EXPECT_EQ(d0.gate_rows, 3);
  EXPECT_EQ(d0.xw, (Floats{1, 2, 3, 3, 4, 7}));
  // Direction 1: X_0·Wᵀ = (2, 4, -1), X_1·Wᵀ = (6, 8, -1).
  const Weights<float> w1 = weights_of(p, 1);
  const Direction<float> d1(p.in, p.cfg, p.st, 1, w1, pool);
  EXPECT_EQ(d1.xw, (Floats{2, 4, -1, 6, 8, -1}));
}

TEST(RecurrentDirection, SplitsRAndTheBiasesAndSlicesTheActivations) {
  Problem p(true);
  util::ThreadPool pool(1);
  const Weights<float> w1 = weights_of(p, 1);
  // R of direction 1 is the column (4, 5, 6); GRU's rows z, r transposed are one row (4, 5),
  // its candidate's row h is (6).
  EXPECT_EQ(w1.rt_head, (Floats{4, 5}));
  EXPECT_EQ(w1.rt_tail, (Floats{6}));
  EXPECT_EQ(w1.wb, (Floats{10, 20, 30}));
  EXPECT_EQ(w1.rb, (Floats{40, 50, 60}));
  EXPECT_EQ(w1.summed, (Floats{50, 70, 90}));
  const Direction<float> d1(p.in, p.cfg, p.st, 1, w1, pool);
  EXPECT_EQ(d1.act[0].kind, Activation::Kind::Sigmoid);
  EXPECT_EQ(d1.act[1].kind, Activation::Kind::Elu);
  EXPECT_TRUE(d1.walk.reverse);

  const Weights<float> w0 = weights_of(p, 0);
  EXPECT_EQ(w0.summed, (Floats{1.5f, 2.25f, 3.125f}));
  const Direction<float> d0(p.in, p.cfg, p.st, 0, w0, pool);
  EXPECT_EQ(d0.act[0].kind, Activation::Kind::Relu);
  EXPECT_FALSE(d0.walk.reverse);
}

TEST(RecurrentDirection, RnnAndLstmKeepRWhole) {
  // One direction, 4 gates (LSTM-shaped), hidden 1: R is the column (1, 2, 3, 4).
  const Tensor w = f32({1, 4, 1}, {1, 1, 1, 1});
  const Tensor r = f32({1, 4, 1}, {1, 2, 3, 4});
  const Weights<float> lstm = direction_weights<float>(w, r, Tensor(), 0, 4);
  EXPECT_EQ(lstm.rt_head, (Floats{1, 2, 3, 4}));
  EXPECT_TRUE(lstm.rt_tail.empty());
}

TEST(RecurrentDirection, WithoutBTheBiasIsZero) {
  Problem p(false);
  const Weights<float> w1 = weights_of(p, 1);
  EXPECT_EQ(w1.wb, (Floats{0, 0, 0}));
  EXPECT_EQ(w1.rb, (Floats{0, 0, 0}));
  EXPECT_EQ(w1.summed, (Floats{0, 0, 0}));
}

TEST(RecurrentDirection, StatesAreTheDirectionsRowsAndEmitWritesY) {
  Problem p(true);
  util::ThreadPool pool(1);
  const Weights<float> w1 = weights_of(p, 1);
  const Direction<float> d1(p.in, p.cfg, p.st, 1, w1, pool);
  EXPECT_EQ(*d1.h, 8);  // Y_h[1, 0, 0]
  EXPECT_EQ(d1.c, nullptr);
  *d1.h = 9;
  d1.emit(1, 0);  // Y[t = 1, d = 1, b = 0] is element (1 * 2 + 1) = 3
  d1.emit(0, 0);  // and Y[0, 1, 0] element 1
  EXPECT_EQ(elements(p.st.y.data<float>(), 4), (Floats{0, 9, 0, 9}));
  EXPECT_EQ(elements(p.st.yh.data<float>(), 2), (Floats{7, 9}));
}

}  // namespace
}  // namespace bough::ops::recurrent
