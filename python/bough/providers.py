"""Execution providers as ONNX Runtime names them. bough runs on the CPU only: a session asked
for another provider warns as ONNX Runtime does for one it lacks, and runs on the CPU."""
import warnings

CPU = "CPUExecutionProvider"


def get_available_providers():
    """The providers a session can use: the CPU's."""
    return [CPU]


def get_all_providers():
    """The providers bough knows of: the CPU's."""
    return [CPU]


def get_device():
    """The device sessions run on, as ONNX Runtime's CPU build reports it."""
    return "CPU"


def checked_providers(providers, provider_options, stacklevel):
    """ONNX Runtime's providers= and provider_options= checked as it checks them (a sequence
    of names or (name, options) pairs, options dicts of the same length). Each provider other
    than the CPU's gets ONNX Runtime's warning (a script's filter for it still matches)."""
    if providers is None:
        return
    if isinstance(providers, (str, bytes)) or not hasattr(providers, "__len__"):
        raise ValueError("'providers' should be a sequence.")
    if provider_options is not None:
        if isinstance(provider_options, (str, bytes)) or not hasattr(provider_options, "__len__"):
            raise ValueError("'provider_options' should be a sequence.")
        if len(providers) != len(provider_options):
            raise ValueError("'providers' and 'provider_options' should be the same length if "
                             "both are given.")
        if not all(isinstance(p, str) for p in providers):
            raise ValueError("Only string values for 'providers' are supported if "
                             "'provider_options' is given.")
        if not all(isinstance(o, dict) for o in provider_options):
            raise ValueError("'provider_options' values must be dicts.")
    names = []
    for p in providers:
        if isinstance(p, tuple) and len(p) == 2 and isinstance(p[0], str) \
                and isinstance(p[1], dict):
            p = p[0]
        elif not isinstance(p, str):
            raise ValueError("'providers' values must be either strings or (string, dict) tuples.")
        if p not in names:
            names.append(p)
    for name in names:
        if name != CPU:
            warnings.warn(f"Specified provider '{name}' is not in available provider names."
                          f"Available providers: '{CPU}' (bough runs on the CPU)",
                          stacklevel=stacklevel + 1)
