// A program outside the tree that uses the installed bough: runs examples/if_loop.onnx with
// x = [1, 2, 3] and n = 4 and checks the result. Worked by hand: iterations 0 and 2 add 1,
// 1 and 3 halve: [2,3,4] -> [1,1.5,2] -> [2,2.5,3] -> [1,1.25,1.5]. The model must also check
// without a diagnostic.
#include <bough/model_tools.h>
#include <bough/session.h>

#include <cstdio>

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: consumer MODEL\n");
    return 2;
  }
  try {
    bough::Model model = bough::Model::load(argv[1]);
    for (const bough::Diagnostic& d : bough::check_model(model)) {
      std::fprintf(stderr, "consumer: %s: %s\n", d.place.c_str(), d.message.c_str());
      return 1;
    }
    bough::Session session(model);
    for (const bough::ValueInfo& in : session.inputs())
      std::printf("input %s: %s\n", in.name.c_str(), in.type.c_str());
    float x[3] = {1, 2, 3};  // read in place, not copied
    bough::NamedValues out =
        session.run({{"x", bough::Tensor::wrap(bough::ElemType::Float, {3}, x)},
                     {"n", bough::Tensor::scalar_i64(4)}});
    const float* y = out[0].second.tensor().data<float>();
    std::printf("%s = [%g, %g, %g]\n", out[0].first.c_str(), y[0], y[1], y[2]);
    return y[0] == 1.0f && y[1] == 1.25f && y[2] == 1.5f ? 0 : 1;
  } catch (const bough::Error& e) {
    std::fprintf(stderr, "consumer: %s\n", e.what());
    return 1;
  }
}
