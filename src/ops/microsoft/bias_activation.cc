#include "ops/microsoft/bias_activation.h"

namespace bough::ops::microsoft {

void check_bias_and_skip(const Tensor& x, const Tensor* bias, const Tensor* skip,
                         const char* name) {
  const std::string op(name);
  if (bias && (x.rank() == 0 || bias->rank() != 1 || bias->dim(0) != x.shape().back()))
    fail(ErrorKind::BadInput, "",
         op + "'s bias of shape " + shape_string(bias->shape()) +
             " is not 1-D of the input's last dimension (input " + shape_string(x.shape()) + ")");
  if (skip && skip->shape() != x.shape())
    fail(ErrorKind::BadInput, "",
         op + "'s skip of shape " + shape_string(skip->shape()) + " differs from the input's " +
             shape_string(x.shape()));
  for (const Tensor* t : {bias, skip})
    if (t && t->type() != x.type())
      fail(ErrorKind::BadInput, "", op + "'s inputs have different element types");
}

}  // namespace bough::ops::microsoft
