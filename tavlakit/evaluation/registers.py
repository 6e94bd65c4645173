"""What the nets' kernels (:mod:`.net_inputs`) compute in registers: a net's hidden units, and bits of masks.

numba's loops keep a sum in memory from one input to the next (the
weights it adds might be the same memory), and do not vectorise loops of a
few units well. These intrinsics (LLVM's vector instructions, AVX-512
where the processor has it) keep ``vectors`` vectors of :data:`LANES`
float32 sums in registers: one unit's sum a lane, each input added to
every unit at once, input after input, so each sum is the same float32
arithmetic as a loop of one unit (no fused multiply-add, no reordering:
bit for bit gnubg's). ``vectors`` is a constant of the caller's code, the
units a chunk of ``LANES * vectors`` from ``first`` (the lanes past a net's
last unit are loaded as 0 and never stored).

An accumulator (``start``) lives in the frame of the compiled function
that starts it (a pointer to it is passed to the others, all inlined).

The bit operations (:data:`ones`, :data:`lowest`, :data:`highest`,
:data:`turned`) are LLVM's counts of an integer's bits, which numba has
no function for: the inputs work on masks of a side's points
(``occupied``), and read a board's counts by their number in the mask
(``count_at``). ``put_board`` copies a board with LLVM's memcpy (the
move generator lists millions of plays a match).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, cast

import numpy as np
from llvmlite import binding, ir
from numba import types
from numba.core.cgutils import false_bit
from numba.extending import intrinsic as _numba_intrinsic

#: Sums in a vector (512 bits).
LANES = 16
#: gnubg's sigmoid beyond 10.
FAR = float(np.float32(1 / 19931.370438230298))

_F32 = ir.FloatType()
_I32 = ir.IntType(32)
_I64 = ir.IntType(64)
_VEC = ir.VectorType(_F32, LANES)
_MASK = ir.VectorType(ir.IntType(1), LANES)
_POINTERS = ir.VectorType(_F32.as_pointer(), LANES)
_LONGS = ir.VectorType(_I64, LANES)


def _intrinsic(typer: Callable[..., Any]) -> Callable[..., Any]:
    """numba's intrinsic of ``typer`` (called by compiled code without the typing context)."""
    return cast(Callable[..., Any], _numba_intrinsic(typer))


def _count(vectors: Any) -> int | None:
    """The number of vectors, a constant of the caller's code (None: not a constant)."""
    return vectors.literal_value if isinstance(vectors, types.IntegerLiteral) else None


def _splat(builder: ir.IRBuilder, value: ir.Value, vec: ir.VectorType) -> ir.Value:
    """``value`` in every lane."""
    one = builder.insert_element(ir.Constant(vec, None), value, _I32(0))
    return builder.shuffle_vector(one, one, ir.Constant(ir.VectorType(_I32, vec.count), [0] * vec.count))


def _llvm(builder: ir.IRBuilder, name: str, pointers: tuple[str, str], fnty: ir.FunctionType) -> ir.Function:
    """LLVM's masked ``name`` of vectors of 16 float32, its pointers named
    ``pointers`` (typed before LLVM 15, opaque from it)."""
    full = f"llvm.masked.{name}.v16f32.{pointers[binding.llvm_version_info[0] >= 15]}"
    found = builder.module.globals.get(full)
    return found if found is not None else ir.Function(builder.module, fnty, full)


def _masked(builder: ir.IRBuilder, name: str) -> ir.Function:
    """LLVM's masked load or store of a vector of float32."""
    if name == "load":
        return _llvm(builder, "load", ("p0v16f32", "p0"), ir.FunctionType(_VEC, [_VEC.as_pointer(), _I32, _MASK, _VEC]))
    return _llvm(
        builder, "store", ("p0v16f32", "p0"), ir.FunctionType(ir.VoidType(), [_VEC, _VEC.as_pointer(), _I32, _MASK])
    )


def _gather(builder: ir.IRBuilder, table: ir.Value, index: ir.Value) -> ir.Value:
    """``table[index]`` (float32) of each lane's ``index`` (LLVM's gather)."""
    base = _splat(builder, builder.ptrtoint(table, _I64), _LONGS)
    offsets = builder.mul(builder.sext(index, _LONGS), ir.Constant(_LONGS, [4] * LANES))
    pointers = builder.inttoptr(builder.add(base, offsets), _POINTERS)
    gather = _llvm(builder, "gather", ("v16p0f32", "v16p0"), ir.FunctionType(_VEC, [_POINTERS, _I32, _MASK, _VEC]))
    return builder.call(gather, [pointers, _I32(4), ir.Constant(_MASK, [1] * LANES), ir.Constant(_VEC, None)])


def _lanes(builder: ir.IRBuilder, first: ir.Value, units: ir.Value, vector: int) -> ir.Value:
    """The lanes of vector ``vector`` of a chunk from unit ``first`` that are units below ``units``."""
    iota = ir.Constant(_LONGS, [vector * LANES + lane for lane in range(LANES)])
    at = builder.add(iota, _splat(builder, first, _LONGS))
    return builder.icmp_signed("<", at, _splat(builder, units, _LONGS))


def _row(context: Any, builder: ir.IRBuilder, arrty: Any, array: ir.Value, row: ir.Value | None) -> tuple[Any, Any]:
    """A float32 array's item ``row`` (of its first index; None: a 1-d array)
    as a pointer to float32, and its length (units)."""
    a = context.make_array(arrty)(context, builder, array)
    data = builder.bitcast(a.data, _F32.as_pointer())
    length = builder.extract_value(a.shape, arrty.ndim - 1)
    if row is None:
        return data, length
    return builder.gep(data, [builder.mul(row, length)]), length


def _load(builder: ir.IRBuilder, data: ir.Value, units: ir.Value, first: ir.Value, count: int) -> list[ir.Value]:
    """The ``count`` vectors of a chunk from unit ``first`` of the ``units``
    float32 at ``data`` (0 past them: masked loads, slower, only where the
    chunk is not whole)."""
    at = [_vector_at(builder, data, builder.add(first, _I64(v * LANES))) for v in range(count)]
    whole = builder.icmp_signed("<=", builder.add(first, _I64(count * LANES)), units)
    with builder.if_else(whole, likely=True) as (then, otherwise):
        with then:
            plain = [builder.load(a, align=4) for a in at]
            plain_block = builder.block
        with otherwise:
            load = _masked(builder, "load")
            masked = [
                builder.call(load, [a, _I32(4), _lanes(builder, first, units, v), ir.Constant(_VEC, None)])
                for v, a in enumerate(at)
            ]
            masked_block = builder.block
    vectors = []
    for one, other in zip(plain, masked, strict=True):
        phi = builder.phi(_VEC)
        phi.add_incoming(one, plain_block)
        phi.add_incoming(other, masked_block)
        vectors.append(phi)
    return vectors


def _vector_at(builder: ir.IRBuilder, data: ir.Value, index: ir.Value) -> ir.Value:
    """A vector's place from float32 ``index`` of ``data``."""
    return builder.bitcast(builder.gep(data, [index]), _VEC.as_pointer())


def _accumulator(builder: ir.IRBuilder, count: int) -> ir.Value:
    """Room for ``count`` vectors in the function's frame (allocated once, at its start)."""
    with builder.goto_entry_block():
        return builder.alloca(ir.ArrayType(_VEC, count))


def _slot(builder: ir.IRBuilder, acc: ir.Value, vector: int) -> ir.Value:
    """The place of the accumulator's vector ``vector``."""
    return builder.gep(builder.bitcast(acc, _VEC.as_pointer()), [_I64(vector)])


def _c_float32(array: Any, ndim: int) -> bool:
    """Is ``array`` a C-ordered float32 array of ``ndim`` dimensions (numba's type)?"""
    return _c_array(array, types.float32, ndim)


def _c_array(array: Any, dtype: Any, ndim: int) -> bool:
    return isinstance(array, types.Array) and array.dtype == dtype and array.ndim == ndim and array.layout == "C"


@_intrinsic
def start(typingctx: Any, bias: Any, first: Any, vectors: Any) -> Any:
    """An accumulator of ``vectors`` vectors of sums, each started from
    ``bias`` (float32, one a unit) from unit ``first``."""
    count = _count(vectors)
    if count is None or not _c_float32(bias, 1):
        return None

    def codegen(context: Any, builder: ir.IRBuilder, sig: Any, args: Any) -> ir.Value:
        acc = _accumulator(builder, count)
        data, units = _row(context, builder, sig.args[0], args[0], None)
        for v, vector in enumerate(_load(builder, data, units, args[1], count)):
            builder.store(vector, _slot(builder, acc, v))
        return builder.bitcast(acc, ir.IntType(8).as_pointer())

    return types.voidptr(bias, types.int64, vectors), codegen


@_intrinsic
def add_times(typingctx: Any, acc: Any, weights: Any, row: Any, value: Any, first: Any, vectors: Any) -> Any:
    """Add to each sum its weight of row ``row`` times ``value`` (rounded to float32 each)."""
    count = _count(vectors)
    if count is None or not _c_float32(weights, 2):
        return None

    def codegen(context: Any, builder: ir.IRBuilder, sig: Any, args: Any) -> ir.Value:
        data, units = _row(context, builder, sig.args[1], args[1], args[2])
        times = _splat(builder, args[3], _VEC)
        for v, vector in enumerate(_load(builder, data, units, args[4], count)):
            slot = _slot(builder, args[0], v)
            product = builder.fmul(vector, times)
            builder.store(builder.fadd(builder.load(slot), product), slot)
        return context.get_dummy_value()

    return types.none(acc, weights, types.int64, types.float32, types.int64, vectors), codegen


@_intrinsic
def sigmoid(typingctx: Any, acc: Any, beta: Any, table: Any, vectors: Any) -> Any:
    """gnubg's sigmoid 1 / (1 + e^-(beta x)) of each sum, in float32: the
    tenths of beta x looked up in ``table`` (e^(k/10) / 10 for k = 0..100),
    linear in between; beyond ±10 a constant."""
    count = _count(vectors)
    if count is None or not _c_float32(table, 1):
        return None

    def codegen(context: Any, builder: ir.IRBuilder, sig: Any, args: Any) -> ir.Value:
        looked_up, _length = _row(context, builder, sig.args[2], args[2], None)
        ints = ir.VectorType(_I32, LANES)
        minus_beta = _splat(builder, builder.fptrunc(builder.fneg(args[1]), _F32), _VEC)
        ten, hundred, one = (ir.Constant(_VEC, [float(c)] * LANES) for c in (10, 100, 1))
        for v in range(count):
            slot = _slot(builder, args[0], v)
            x = builder.fmul(builder.load(slot), minus_beta)
            size = builder.bitcast(builder.and_(builder.bitcast(x, ints), ir.Constant(ints, [2**31 - 1] * LANES)), _VEC)
            scaled = builder.fmul(ten, size)
            tenths = builder.select(builder.fcmp_ordered("<", hundred, scaled), hundred, scaled)
            index = builder.fptosi(tenths, ints)
            looked = _gather(builder, looked_up, index)
            span = builder.fadd(builder.fsub(ten, builder.sitofp(index, _VEC)), tenths)  # (floor: tenths >= 0)
            near = builder.fdiv(one, builder.fadd(one, builder.fmul(looked, span)))
            small = builder.select(builder.fcmp_ordered("<", size, ten), near, ir.Constant(_VEC, [FAR] * LANES))
            above = builder.fcmp_ordered(">=", x, ir.Constant(_VEC, None))
            builder.store(builder.select(above, small, builder.fsub(one, small)), slot)
        return context.get_dummy_value()

    return types.none(acc, types.float64, table, vectors), codegen


@_intrinsic
def store_column(typingctx: Any, acc: Any, out: Any, column: Any, first: Any, vectors: Any) -> Any:
    """The sums into column ``column`` of ``out`` (float32, a row a unit) from unit ``first``."""
    count = _count(vectors)
    if count is None or not _c_float32(out, 2):
        return None

    def codegen(context: Any, builder: ir.IRBuilder, sig: Any, args: Any) -> ir.Value:
        a = context.make_array(sig.args[1])(context, builder, args[1])
        units = builder.extract_value(a.shape, 0)
        width = builder.extract_value(a.shape, 1)
        base = _splat(builder, builder.ptrtoint(a.data, _I64), _LONGS)
        scatter = _llvm(
            builder, "scatter", ("v16p0f32", "v16p0"), ir.FunctionType(ir.VoidType(), [_VEC, _POINTERS, _I32, _MASK])
        )
        for v in range(count):
            rows = builder.add(
                ir.Constant(_LONGS, [v * LANES + lane for lane in range(LANES)]), _splat(builder, args[3], _LONGS)
            )
            items = builder.add(builder.mul(rows, _splat(builder, width, _LONGS)), _splat(builder, args[2], _LONGS))
            pointers = builder.inttoptr(
                builder.add(base, builder.mul(items, ir.Constant(_LONGS, [4] * LANES))), _POINTERS
            )
            mask = _lanes(builder, args[3], units, v)
            builder.call(scatter, [builder.load(_slot(builder, args[0], v)), pointers, _I32(4), mask])
        return context.get_dummy_value()

    return types.none(acc, out, types.int64, types.int64, vectors), codegen


@_intrinsic
def start_each(typingctx: Any, values: Any, vectors: Any) -> Any:
    """An accumulator whose vector v is ``values[v]`` (float32) in every lane."""
    count = _count(vectors)
    if count is None or not _c_float32(values, 1):
        return None

    def codegen(context: Any, builder: ir.IRBuilder, sig: Any, args: Any) -> ir.Value:
        acc = _accumulator(builder, count)
        data, _units = _row(context, builder, sig.args[0], args[0], None)
        for v in range(count):
            builder.store(_splat(builder, builder.load(builder.gep(data, [_I64(v)])), _VEC), _slot(builder, acc, v))
        return builder.bitcast(acc, ir.IntType(8).as_pointer())

    return types.voidptr(values, vectors), codegen


@_intrinsic
def add_each(typingctx: Any, acc: Any, rows: Any, row: Any, weights: Any, vectors: Any) -> Any:
    """Add to vector v of sums row ``row`` of ``rows`` (float32, a lane a
    column) times ``weights[row, v]`` (float32)."""
    count = _count(vectors)
    if count is None or not _c_float32(rows, 2) or not _c_float32(weights, 2):
        return None

    def codegen(context: Any, builder: ir.IRBuilder, sig: Any, args: Any) -> ir.Value:
        data, lanes = _row(context, builder, sig.args[1], args[1], args[2])
        (value,) = _load(builder, data, lanes, _I64(0), 1)
        times, _outputs = _row(context, builder, sig.args[3], args[3], args[2])
        for v in range(count):
            slot = _slot(builder, args[0], v)
            weight = _splat(builder, builder.load(builder.gep(times, [_I64(v)])), _VEC)
            builder.store(builder.fadd(builder.load(slot), builder.fmul(value, weight)), slot)
        return context.get_dummy_value()

    return types.none(acc, rows, types.int64, weights, vectors), codegen


@_intrinsic
def store_each(typingctx: Any, acc: Any, out: Any, vectors: Any) -> Any:
    """Vector v of sums into row v of ``out`` (float32, a lane a column)."""
    count = _count(vectors)
    if count is None or not _c_float32(out, 2):
        return None

    def codegen(context: Any, builder: ir.IRBuilder, sig: Any, args: Any) -> ir.Value:
        for v in range(count):
            data, lanes = _row(context, builder, sig.args[1], args[1], _I64(v))
            mask = _lanes(builder, _I64(0), lanes, 0)
            value = builder.load(_slot(builder, args[0], v))
            builder.call(_masked(builder, "store"), [value, builder.bitcast(data, _VEC.as_pointer()), _I32(4), mask])
        return context.get_dummy_value()

    return types.none(acc, out, vectors), codegen


@_intrinsic
def occupied(typingctx: Any, board: Any) -> Any:
    """Bit ``25 s + p``: side s of ``board`` (int8 (2, 25)) has chequers on point p."""
    if not _c_array(board, types.int8, 2):
        return None

    def codegen(context: Any, builder: ir.IRBuilder, sig: Any, args: Any) -> ir.Value:
        a = context.make_array(sig.args[0])(context, builder, args[0])
        data = builder.bitcast(a.data, ir.IntType(8).as_pointer())
        bytes32 = ir.VectorType(ir.IntType(8), 32)
        mask = _I64(0)
        for at in (0, 18):  # bytes 0-31 and 18-49
            chunk = builder.load(builder.bitcast(builder.gep(data, [_I64(at)]), bytes32.as_pointer()), align=1)
            bits = builder.bitcast(builder.icmp_signed("!=", chunk, ir.Constant(bytes32, None)), _I32)
            mask = builder.or_(mask, builder.shl(builder.zext(bits, _I64), _I64(at)))
        return mask

    return types.int64(board), codegen


@_intrinsic
def count_at(typingctx: Any, board: Any, q: Any) -> Any:
    """Count ``q`` of ``board`` (int8 (2, 25)) read as its 50 counts in a row:
    side ``q // 25``, point ``q % 25`` (numba's ``reshape`` calls a
    function for each board)."""
    if not _c_array(board, types.int8, 2) or not isinstance(q, types.Integer):
        return None

    def codegen(context: Any, builder: ir.IRBuilder, sig: Any, args: Any) -> ir.Value:
        a = context.make_array(sig.args[0])(context, builder, args[0])
        data = builder.bitcast(a.data, ir.IntType(8).as_pointer())
        at = context.cast(builder, args[1], sig.args[1], types.int64)
        return builder.load(builder.gep(data, [at]))

    return types.int8(board, q), codegen


@_intrinsic
def put_board(typingctx: Any, out: Any, row: Any, board: Any, swapped: Any) -> Any:
    """``out[row] = board`` (int8 boards (2, 25)), the sides swapped where
    ``swapped``: two copies of 25 bytes (LLVM's memcpy, a few vector moves
    where a loop copies byte by byte)."""
    if not (_c_array(out, types.int8, 3) and _c_array(board, types.int8, 2) and isinstance(swapped, types.Boolean)):
        return None

    def codegen(context: Any, builder: ir.IRBuilder, sig: Any, args: Any) -> ir.Value:
        o = context.make_array(sig.args[0])(context, builder, args[0])
        b = context.make_array(sig.args[2])(context, builder, args[2])
        byte = ir.IntType(8).as_pointer()
        rows, sides = builder.extract_value(o.strides, 0), builder.extract_value(o.strides, 1)
        dst = builder.gep(builder.bitcast(o.data, byte), [builder.mul(args[1], rows)])
        src = builder.bitcast(b.data, byte)
        copy = builder.module.declare_intrinsic("llvm.memcpy", [byte, byte, _I64])
        no = ir.Constant(ir.IntType(1), 0)
        first, second = builder.select(args[3], sides, _I64(0)), builder.select(args[3], _I64(0), sides)
        builder.call(copy, [builder.gep(dst, [first]), src, _I64(25), no])
        other = builder.gep(src, [builder.extract_value(b.strides, 0)])
        builder.call(copy, [builder.gep(dst, [second]), other, _I64(25), no])
        return context.get_dummy_value()

    return types.none(out, row, board, swapped), codegen


def _bitwise(name: str, body: Callable[[Any, Any], Any]) -> Callable[[int], int]:
    """A compiled function of an integer: the LLVM value ``body(builder, x)``."""

    def typer(typingctx: Any, x: Any) -> tuple[Any, Callable[..., Any]]:
        def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
            return body(builder, args[0])

        return x(x), codegen

    typer.__name__ = typer.__qualname__ = name
    return cast(Callable[[int], int], _numba_intrinsic(typer))


#: The bits set in an integer.
ones = _bitwise("ones", lambda b, x: b.ctpop(x))
#: The lowest bit set in an integer (false_bit: its width for 0, not poison).
lowest = _bitwise("lowest", lambda b, x: b.cttz(x, false_bit))
#: The highest bit set in an integer (-1 for 0).
highest = _bitwise("highest", lambda b, x: b.sub(x.type(x.type.width - 1), b.ctlz(x, false_bit)))
#: A 24-bit mask's bits in reverse order (bit q to bit 23 - q: a side's
#: points 0 to 23 as the other side counts them; the bits from 24 on dropped).
turned = _bitwise(
    "turned",
    lambda b, x: b.and_(b.lshr(b.bitreverse(x), x.type(x.type.width - 24)), x.type(0xFFFFFF)),
)


__all__ = [
    "FAR",
    "LANES",
    "add_each",
    "add_times",
    "count_at",
    "highest",
    "lowest",
    "occupied",
    "ones",
    "put_board",
    "sigmoid",
    "start",
    "start_each",
    "store_column",
    "store_each",
    "turned",
]
