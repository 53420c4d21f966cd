/* test_trace_layout.c: rewriter/find/trace_abi.c, the argument and result
 * assignment of cmd/compile/abi-internal.md, on crafted types: registers
 * in order, an aggregate that no longer fits goes to the stack whole and
 * later arguments still take the registers it left, arrays longer than 1
 * and zero-sized values on the stack, results restarting at register 0
 * and on the stack after a pointer-alignment, 15 float registers; and the
 * stack ABI's alignment (int8, int16, int32 share a word). The layouts of
 * real binaries: tests/rewriter/t_trace_layout.sh. */
#include "tests/unit/unit.h"
#include "rewriter/find/trace_abi.h"
#include "format/trace_desc.h"

#include <string.h>

static struct gr_tv_type t_int = {.kind = GTD_K_INT, .size = 8, .align = 8, .byte_size = 8, .name = "int"};
static struct gr_tv_type t_i8 = {.kind = GTD_K_INT, .size = 1, .align = 1, .byte_size = 1};
static struct gr_tv_type t_i16 = {.kind = GTD_K_INT, .size = 2, .align = 2, .byte_size = 2};
static struct gr_tv_type t_i32 = {.kind = GTD_K_INT, .size = 4, .align = 4, .byte_size = 4};
static struct gr_tv_type t_f64 = {.kind = GTD_K_FLOAT, .size = 8, .align = 8, .byte_size = 8};
static struct gr_tv_type t_str = {.kind = GTD_K_STRING, .size = 8, .align = 8, .byte_size = 16};
static struct gr_tv_type t_arr2 = {.kind = GTD_K_ARRAY, .align = 8, .byte_size = 16, .elem = &t_int, .len = 2};
static struct gr_tv_type t_arr1 = {.kind = GTD_K_ARRAY, .align = 8, .byte_size = 8, .elem = &t_int, .len = 1};
static struct gr_tv_type t_empty = {.kind = GTD_K_STRUCT, .align = 1, .byte_size = 0};
static struct gr_tv_field mixed_fields[] = {{"a", 0, &t_i8}, {"f", 8, &t_f64}};
static struct gr_tv_type t_mixed = {.kind = GTD_K_STRUCT, .align = 8, .byte_size = 16, .fields = mixed_fields,
                                    .nfields = 2};

enum { MAXP = 32 };
static struct gr_tv_param params[MAXP];
static struct gr_abi_place places[MAXP];
static size_t np;

static void add(struct gr_tv_type *t, int result)
{
    params[np++] = (struct gr_tv_param){.type = t, .result = result};
}

static void reset(void)
{
    np = 0;
    memset(places, 0xee, sizeof places);
}

#define CHECK_REG(i, ireg, freg)                 \
    do {                                         \
        CHECK_INT(places[i].on_stack, 0);        \
        CHECK_INT(places[i].int_reg, ireg);      \
        CHECK_INT(places[i].float_reg, freg);    \
    } while (0)
#define CHECK_STACK(i, off)                      \
    do {                                         \
        CHECK_INT(places[i].on_stack, 1);        \
        CHECK_INT(places[i].stack_off, off);     \
    } while (0)

static void ints_fill_registers_then_stack(void)
{
    reset();
    for (int i = 0; i < 10; i++)
        add(&t_int, 0);
    gr_abi_assign(params, np, 1, places);
    for (int i = 0; i < 9; i++)
        CHECK_REG(i, i, 0);
    CHECK_STACK(9, 0);
    CHECK_INT(gr_abi_int_reg(0), 0);  /* RAX */
    CHECK_INT(gr_abi_int_reg(1), 3);  /* RBX */
    CHECK_INT(gr_abi_int_reg(3), 7);  /* RDI */
    CHECK_INT(gr_abi_int_reg(8), 11); /* R11 */
}

static void aggregate_that_does_not_fit_goes_whole(void)
{
    reset();
    for (int i = 0; i < 8; i++)
        add(&t_int, 0);
    add(&t_str, 0);  /* needs 2, one left: stack */
    add(&t_int, 0);  /* still gets the 9th register */
    add(&t_str, 0);  /* stack, after the first string */
    gr_abi_assign(params, np, 1, places);
    CHECK_STACK(8, 0);
    CHECK_REG(9, 8, 0);
    CHECK_STACK(10, 16);
}

static void arrays_and_zero_size(void)
{
    reset();
    add(&t_arr2, 0);
    add(&t_arr1, 0);
    add(&t_empty, 0);
    add(&t_mixed, 0);
    gr_abi_assign(params, np, 1, places);
    CHECK_STACK(0, 0);
    CHECK_REG(1, 0, 0);
    CHECK_STACK(2, 16);
    CHECK_REG(3, 1, 0); /* int8 in an integer register, float64 in X0 */
}

static void results_restart_registers(void)
{
    reset();
    for (int i = 0; i < 9; i++)
        add(&t_int, 0);
    add(&t_i8, 0);           /* stack 0, 1 byte */
    for (int i = 0; i < 10; i++)
        add(&t_int, 1);
    gr_abi_assign(params, np, 1, places);
    CHECK_STACK(9, 0);
    for (int i = 0; i < 9; i++)
        CHECK_REG(10 + i, i, 0);
    CHECK_STACK(19, 8);      /* after the pointer-alignment field */
}

static void fifteen_float_registers(void)
{
    reset();
    for (int i = 0; i < 16; i++)
        add(&t_f64, 0);
    add(&t_int, 0);
    gr_abi_assign(params, np, 1, places);
    CHECK_REG(14, 0, 14);
    CHECK_STACK(15, 0);
    CHECK_REG(16, 0, 15); /* FP index past the registers: unused, int in RAX */
}

static void stack_abi_alignment(void)
{
    reset();
    add(&t_i8, 0);
    add(&t_i16, 0);
    add(&t_i32, 0);
    add(&t_int, 0);
    add(&t_i8, 0);
    add(&t_int, 1);
    add(&t_i8, 1);
    add(&t_str, 1);
    gr_abi_assign(params, np, 0, places);
    CHECK_STACK(0, 0);
    CHECK_STACK(1, 2);
    CHECK_STACK(2, 4);
    CHECK_STACK(3, 8);
    CHECK_STACK(4, 16);
    CHECK_STACK(5, 24);
    CHECK_STACK(6, 32);
    CHECK_STACK(7, 40);
}

UNIT_CASES("trace_layout", UNIT_CASE(ints_fill_registers_then_stack), UNIT_CASE(aggregate_that_does_not_fit_goes_whole),
           UNIT_CASE(arrays_and_zero_size), UNIT_CASE(results_restart_registers), UNIT_CASE(fifteen_float_registers),
           UNIT_CASE(stack_abi_alignment));
