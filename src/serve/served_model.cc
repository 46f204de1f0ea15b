#include "serve/served_model.h"

#include <algorithm>

#include "bough/model.h"

namespace bough::serve {

namespace {

// Whether the model may batch: every input and output whose rank is known has a dim 0 that
// the model leaves open. (One of unknown rank is checked on each batch's outputs.)
bool open_dim0(const std::vector<ValueInfo>& infos) {
  return std::all_of(infos.begin(), infos.end(), [](const ValueInfo& info) {
    return !info.rank_known || (!info.shape.empty() && !info.shape.front().known());
  });
}

}  // namespace

ServedModel::ServedModel(const ModelSource& source, const SessionOptions& options, int max_waiting)
    : name_(source.name), version_(source.version) {
  SessionOptions with_threads = options;
  with_threads.threads = source.config.threads;
  pool_ = std::make_unique<SessionPool>(Model::load(source.path), with_threads,
                                        source.config.instances, max_waiting, name_);
  BatchSettings batching{source.config.max_batch_size, source.config.batch_delay_us};
  if (!open_dim0(inputs()) || !open_dim0(outputs())) batching.max_batch_size = 0;
  batches_ = batching.max_batch_size > 1;
  batcher_ =
      std::make_unique<Batcher>(batching, [this](const std::function<const NamedValues&()>& inputs,
                                                 RequestTimes& times, RunCancel* cancel) {
        return pool_->run(
            [&]() -> const NamedValues& {
              count_run();
              return inputs();
            },
            times, cancel);
      });
}

std::optional<NamedValues> ServedModel::try_run(const NamedValues& inputs, RequestTimes& times) {
  if (batches_) return std::nullopt;
  return pool_->try_run(
      [&]() -> const NamedValues& {
        count_run();
        return inputs;
      },
      times);
}

}  // namespace bough::serve
