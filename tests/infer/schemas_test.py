#!/usr/bin/python3
"""bough's operator signatures against ONNX's own schemas (python3-onnx, opsets <= 17).

For every signature row of a version onnx knows, the formal inputs and outputs (names,
arity, type variables), the types each variable allows and the attributes (names, kinds,
required-ness) must be ONNX's; so must the counts of inputs and outputs an operator takes
(the union over its rows, as bough derives them from its signatures) when onnx knows all of
its rows. Usage: schemas_test.py BOUGH_CLI. Exits 77 (skipped) when
onnx is not importable, 1 listing every difference.
"""
import json
import subprocess
import sys

try:
    import onnx.defs as defs
    from onnx import AttributeProto as AP
except ImportError:
    print("onnx is not importable: skipped")
    sys.exit(77)

NEWEST = {"": 17, "ai.onnx.ml": 3}  # what onnx 1.12 knows
NEWEST["ai.onnx.preview.training"] = 1  # Adagrad, Adam, Momentum

KINDS = {AP.FLOAT: "a float", AP.INT: "an int", AP.STRING: "a string", AP.TENSOR: "a tensor",
         AP.GRAPH: "a graph", AP.SPARSE_TENSOR: "a sparse tensor", AP.TYPE_PROTO: "a type",
         AP.FLOATS: "floats", AP.INTS: "ints", AP.STRINGS: "strings", AP.TENSORS: "tensors",
         AP.GRAPHS: "graphs", AP.SPARSE_TENSORS: "sparse tensors", AP.TYPE_PROTOS: "types"}


def arity(p):
    opt = p.option
    if opt == defs.OpSchema.FormalParameterOption.Optional:
        return "optional"
    if opt == defs.OpSchema.FormalParameterOption.Variadic:
        return "variadic" if p.isHomogeneous else "heterogeneous"
    return "single"


# Operators whose counts say more than ONNX's schema: the optimizers take X, G and their
# state for one tensor at least, and give X' and the new state for each.
STRICTER_COUNTS = {("ai.onnx.preview.training", n) for n in ("Adagrad", "Adam", "Momentum")}


def onnx_counts(domain, name, sinces):
    """ONNX's [min, max] inputs and outputs over the rows `sinces`, None for no limit; None when
    onnx lacks a row."""
    ins, outs = [], []
    for since in sinces:
        try:
            schema = defs.get_schema(name, since, domain)
        except Exception:  # onnx 1.12 lacks it
            return None
        if schema.since_version != since:
            return None
        ins.append((schema.min_input, schema.max_input))
        outs.append((schema.min_output, schema.max_output))

    def union(pairs):
        most = max(m for _, m in pairs)
        return [min(m for m, _ in pairs), None if most >= 2**31 - 1 else most]
    return union(ins), union(outs)


def compare_counts(op, problems):
    domain, name = op["domain"], op["name"]
    if any(v > NEWEST[domain] for v in op["versions"]) or (domain, name) in STRICTER_COUNTS:
        return 0
    theirs = onnx_counts(domain, name, op["versions"])
    if theirs is None:
        return 0
    where = f"{domain + '.' if domain else ''}{name}"
    for what, mine, their in (("inputs", op["inputs"], theirs[0]),
                              ("outputs", op["outputs"], theirs[1])):
        if mine != their:
            problems.append(f"{where}: takes {mine} {what}, onnx {their}")
    return 1


def compare_formals(where, ours, theirs, variables, constraints, problems):
    if [f["name"] for f in ours] != [p.name for p in theirs]:
        problems.append(f"{where}: names {[f['name'] for f in ours]} vs onnx "
                        f"{[p.name for p in theirs]}")
        return
    for f, p in zip(ours, theirs):
        if f["arity"] != arity(p):
            problems.append(f"{where} {f['name']}: arity {f['arity']} vs onnx {arity(p)}")
        allowed = set(variables[f["type"]])
        want = set(constraints[p.typeStr]) if p.typeStr in constraints else {p.typeStr}
        if allowed != want:
            problems.append(f"{where} {f['name']}: types differ: bough only "
                            f"{sorted(allowed - want)}, onnx only {sorted(want - allowed)}")


def main():
    ops = json.loads(subprocess.run([sys.argv[1], "ops", "--json"], check=True,
                                    capture_output=True, text=True).stdout)
    problems, rows, counted = [], 0, 0
    for op in ops:
        domain, name = op["domain"], op["name"]
        if domain not in NEWEST:
            continue
        counted += compare_counts(op, problems)
        for sig in op["signatures"]:
            since = sig["since"]
            if since > NEWEST[domain]:
                continue
            where = f"{domain + '.' if domain else ''}{name}-{since}"
            try:
                schema = defs.get_schema(name, since, domain)
            except Exception:  # onnx 1.12 lacks it
                continue
            if schema.since_version != since:
                problems.append(f"{where}: onnx's row in force is {schema.since_version}")
                continue
            rows += 1
            constraints = {c.type_param_str: list(c.allowed_type_strs)
                           for c in schema.type_constraints}
            compare_formals(where + " input", sig["inputs"], schema.inputs, sig["variables"],
                            constraints, problems)
            compare_formals(where + " output", sig["outputs"], schema.outputs,
                            sig["variables"], constraints, problems)
            ours = {a["name"]: a for a in sig["attributes"]}
            for attr_name, a in schema.attributes.items():
                mine = ours.pop(attr_name, None)
                if mine is None:
                    problems.append(f"{where}: attribute {attr_name} missing")
                elif mine["kind"] != KINDS[a.type] or mine["required"] != a.required:
                    problems.append(f"{where}: attribute {attr_name} is {mine['kind']}"
                                    f"{' required' if mine['required'] else ''}, onnx "
                                    f"{KINDS[a.type]}{' required' if a.required else ''}")
            for extra in ours:
                problems.append(f"{where}: attribute {extra} is not in onnx's schema")
    print(f"{rows} signature rows and the counts of {counted} operators compared with onnx "
          f"{NEWEST}")
    for p in problems:
        print(p)
    return 1 if problems or rows == 0 or counted == 0 else 0


if __name__ == "__main__":
    sys.exit(main())
