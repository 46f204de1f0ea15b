"""Writes object-dtype .npy files as numpy saves them, for tests/tools/npy_object_test.cc.

Usage: make_object_npy.py DIR. Each DIR/NAME.npy comes with DIR/NAME.expected, worked out
by numpy itself: the shape on the first line (dims separated by spaces), then each element
in C order as the hex of its bytes (a str as UTF-8), one a line.
"""

import io
import pickle
import sys

import numpy as np
from numpy.lib import format as npy_format


def np_save(array):
    """The file np.save writes (pickle protocol 3, module numpy.core in numpy 1.x)."""
    out = io.BytesIO()
    np.save(out, array, allow_pickle=True)
    return out.getvalue()


def with_protocol(array, protocol):
    """The header np.save writes, then the array pickled with another protocol (4 and 5
    bring FRAME, MEMOIZE, SHORT_BINUNICODE and STACK_GLOBAL)."""
    out = io.BytesIO()
    npy_format.write_array_header_1_0(out, npy_format.header_data_from_array_1_0(array))
    pickle.dump(array, out, protocol=protocol)
    return out.getvalue()


def main(folder):
    many = np.array(["s%d" % i for i in range(300)], dtype=object)  # memo indexes past 255
    unicode = np.array(["é", "€uro", "😀", "", "a\x00b", "x" * 300], dtype=object)
    same = "repeated"
    files = {
        "c1d": np_save(np.array(["ab", "ab", "", "cd"], dtype=object)),
        "c2d": np_save(np.array([["a", "bb"], ["ccc", "a"], ["", "e"]], dtype=object)),
        "fortran": np_save(np.asfortranarray(np.array([["a", "b", "c"], ["d", "e", "f"]],
                                                      dtype=object))),
        "empty": np_save(np.array([], dtype=object)),
        "empty2d": np_save(np.empty((2, 0), dtype=object)),
        "scalar": np_save(np.array("alone", dtype=object)),
        "unicode": np_save(unicode),
        "bytes": np_save(np.array([b"\x00\xff", b"ab", b""], dtype=object)),
        "mixed": np_save(np.array([b"raw", "text"], dtype=object)),
        "memo": np_save(np.array([same] * 5, dtype=object)),
        "many": np_save(many),
        "rank3": np_save(np.array([str(i) for i in range(24)], dtype=object).reshape(2, 3, 4)),
        "protocol4": with_protocol(unicode, 4),
        "protocol5": with_protocol(many, 5),
        # numpy 2 names the module numpy._core; the GLOBAL line's length is free.
        "numpy2": np_save(np.array(["x", "y"], dtype=object)).replace(
            b"numpy.core.multiarray", b"numpy._core.multiarray"),
    }
    arrays = {
        "numpy2": np.array(["x", "y"], dtype=object),
    }
    for name, data in files.items():
        with open("%s/%s.npy" % (folder, name), "wb") as f:
            f.write(data)
        array = arrays.get(name)
        if array is None:
            array = np.load(io.BytesIO(data), allow_pickle=True)
        lines = [" ".join(str(d) for d in array.shape)]
        for item in array.ravel(order="C"):
            lines.append((item.encode("utf-8") if isinstance(item, str) else item).hex())
        with open("%s/%s.expected" % (folder, name), "w") as f:
            f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main(sys.argv[1])
