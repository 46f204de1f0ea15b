"""A strict reader of Prometheus' text exposition format (version 0.0.4), for the tests of
`bough serve`'s /metrics: every line must be a # HELP, a # TYPE or a sample; a family's HELP
and TYPE come once, before its samples, and its samples together; names and labels follow the
format's grammar; a histogram's buckets are cumulative, ordered by `le`, end at +Inf and
equal its _count. Anything else raises ValueError naming the line."""
import math
import re

NAME = r"[a-zA-Z_:][a-zA-Z0-9_:]*"
LABEL = r"[a-zA-Z_][a-zA-Z0-9_]*"
VALUE = r'"(?:[^"\\\n]|\\[\\"n])*"'
SAMPLE = re.compile(rf"({NAME})(?:\{{((?:{LABEL}={VALUE}(?:,{LABEL}={VALUE})*)?,?)\}})? (\S+)$")
PAIR = re.compile(rf"({LABEL})=({VALUE})")
TYPES = {"counter", "gauge", "histogram", "summary", "untyped"}


def _unescape(quoted):
    return re.sub(r"\\(.)", lambda m: "\n" if m.group(1) == "n" else m.group(1), quoted[1:-1])


def _value(text, line):
    if text in ("+Inf", "-Inf", "NaN"):
        return float(text.replace("Inf", "inf").replace("NaN", "nan"))
    if not re.fullmatch(r"[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?", text):
        raise ValueError(f"bad value in {line!r}")
    return float(text)


def _family_of(name, families):
    """The family a sample name belongs to: itself, or a histogram's base name."""
    for suffix in ("_bucket", "_sum", "_count"):
        base = name[: -len(suffix)]
        if name.endswith(suffix) and families.get(base, {}).get("type") in ("histogram",
                                                                              "summary"):
            return base
    return name


def parse(text):
    """{family: {"type", "help", "samples": [(name, {label: value}, float)]}}."""
    if text and not text.endswith("\n"):
        raise ValueError("the page must end with a newline")
    families, finished, current = {}, set(), None
    for line in text.split("\n")[:-1]:
        if not line:
            continue
        if line.startswith("#"):
            m = re.fullmatch(rf"# (HELP|TYPE) ({NAME}) (.*)", line)
            if not m:
                if re.match(r"# (HELP|TYPE)", line):
                    raise ValueError(f"malformed {line!r}")
                continue  # a plain comment
            kind, name, rest = m.groups()
            family = families.setdefault(name, {"type": None, "help": None, "samples": []})
            if family["samples"] or name in finished:
                raise ValueError(f"{kind} after the samples of {name}: {line!r}")
            key = kind.lower()
            if family[key] is not None:
                raise ValueError(f"second {kind} for {name}")
            if kind == "TYPE" and rest not in TYPES:
                raise ValueError(f"unknown type in {line!r}")
            family[key] = rest
            if current != name and current is not None:
                finished.add(current)
            current = name
            continue
        m = SAMPLE.fullmatch(line)
        if not m:
            raise ValueError(f"malformed sample {line!r}")
        name, labels_text, value = m.groups()
        labels = {}
        for label, quoted in PAIR.findall(labels_text or ""):
            if label in labels:
                raise ValueError(f"label {label} twice in {line!r}")
            labels[label] = _unescape(quoted)
        base = _family_of(name, families)
        if base in finished:
            raise ValueError(f"samples of {base} are not together: {line!r}")
        if current != base and current is not None:
            finished.add(current)
        current = base
        family = families.setdefault(base, {"type": None, "help": None, "samples": []})
        family["samples"].append((name, labels, _value(value, line)))
    for name, family in families.items():
        if family["type"] == "histogram":
            _check_histogram(name, family["samples"])
    return families


def _check_histogram(name, samples):
    series = {}
    for sample_name, labels, value in samples:
        key = tuple(sorted((k, v) for k, v in labels.items() if k != "le"))
        entry = series.setdefault(key, {"buckets": [], "sum": None, "count": None})
        if sample_name == name + "_bucket":
            entry["buckets"].append((_value(labels["le"], labels["le"]), value))
        elif sample_name == name + "_sum":
            entry["sum"] = value
        elif sample_name == name + "_count":
            entry["count"] = value
        else:
            raise ValueError(f"{sample_name} in histogram {name}")
    for key, entry in series.items():
        bounds = [b for b, _ in entry["buckets"]]
        counts = [c for _, c in entry["buckets"]]
        if not bounds or bounds[-1] != math.inf or bounds != sorted(bounds):
            raise ValueError(f"{name}{key}: buckets must rise to +Inf: {bounds}")
        if counts != sorted(counts):
            raise ValueError(f"{name}{key}: buckets are not cumulative: {counts}")
        if entry["sum"] is None or entry["count"] != counts[-1]:
            raise ValueError(f"{name}{key}: _sum missing or _count not the +Inf bucket")


def value(families, family, sample=None, **labels):
    """The value of the one sample of `family` (named `sample`, default the family) with
    exactly `labels` (a histogram bucket: give le)."""
    sample = sample or family
    found = [v for n, l, v in families[family]["samples"] if n == sample and l == labels]
    if len(found) != 1:
        raise KeyError(f"{sample}{labels}: {len(found)} samples")
    return found[0]
