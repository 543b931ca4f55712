/* interp.c -- the switch-dispatch interpreter workload: a small stack VM running sieve, fib and a hash loop.
   Copyright (C) 2026 the cachegrind-ng developers.
   SPDX-License-Identifier: GPL-2.0-or-later

   Usage: interp SCALE    (SCALE 1 is the quick size; the benchmark uses 10)

   The VM is the classic shape that stresses a binary translator: one
   `switch` on the opcode inside a loop, so nearly every guest block ends
   in an indirect jump through the compiler's jump table.  Programs are
   assembled at start-up by a tiny builder with symbolic labels, then run
   SCALE times each; the printed checksums let a reader see that every
   run computed the same thing. */

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum op {
    OP_HALT, OP_PUSH, OP_POP, OP_DUP, OP_SWAP, OP_OVER,
    OP_LOAD, OP_STORE,            /* operand: local slot */
    OP_ADD, OP_SUB, OP_MUL, OP_DIV, OP_MOD,
    OP_AND, OP_XOR, OP_SHL, OP_SHR,
    OP_LT, OP_EQ, OP_NOT,
    OP_JMP, OP_JZ, OP_JNZ,        /* operand: code address */
    OP_CALL,                      /* operand: code address; pushes a frame */
    OP_RET,
    OP_ARG,                       /* operand: argument index in the frame */
    OP_MLOAD, OP_MSTORE,          /* heap memory: [addr] and [addr] = v */
    OP_COUNT
};

#define CODE_MAX 1024
#define LABEL_MAX 32
#define STACK_MAX 4096
#define FRAME_MAX 4096
#define LOCALS 16
#define HEAP_WORDS (1 << 20)

/* A program under construction: code words, label addresses, and the
   places that wait for a label to be placed. */
struct builder {
    int64_t code[CODE_MAX];
    int len;
    int label_at[LABEL_MAX];      /* -1 until placed */
    int fixup_pos[CODE_MAX];
    int fixup_label[CODE_MAX];
    int fixups;
};

static void die(const char *what)
{
    fprintf(stderr, "interp: error: %s\n", what);
    exit(1);
}

static void b_init(struct builder *b)
{
    memset(b, 0, sizeof(*b));
    for (int i = 0; i < LABEL_MAX; i++)
        b->label_at[i] = -1;
}

static void emit(struct builder *b, enum op op)
{
    if (b->len >= CODE_MAX)
        die("program too long");
    b->code[b->len++] = op;
}

static void emit1(struct builder *b, enum op op, int64_t operand)
{
    emit(b, op);
    if (b->len >= CODE_MAX)
        die("program too long");
    b->code[b->len++] = operand;
}

/* Emits a jump or call whose target is a label placed now or later. */
static void emit_to(struct builder *b, enum op op, int label)
{
    emit1(b, op, 0);
    b->fixup_pos[b->fixups] = b->len - 1;
    b->fixup_label[b->fixups] = label;
    b->fixups++;
}

static void place(struct builder *b, int label)
{
    b->label_at[label] = b->len;
}

static void b_finish(struct builder *b)
{
    for (int i = 0; i < b->fixups; i++) {
        int at = b->label_at[b->fixup_label[i]];

        if (at < 0)
            die("jump to a label that was never placed");
        b->code[b->fixup_pos[i]] = at;
    }
}

/* Idioms of the programs below: slot += delta, slot = value, and "leave
   the loop through label unless locals[x] < locals[y]". */
static void emit_add_to(struct builder *b, int slot, int64_t delta)
{
    emit1(b, OP_LOAD, slot);
    emit1(b, OP_PUSH, delta);
    emit(b, OP_ADD);
    emit1(b, OP_STORE, slot);
}

static void emit_set(struct builder *b, int slot, int64_t value)
{
    emit1(b, OP_PUSH, value);
    emit1(b, OP_STORE, slot);
}

static void emit_exit_unless_lt(struct builder *b, int x, int y, int label)
{
    emit1(b, OP_LOAD, x);
    emit1(b, OP_LOAD, y);
    emit(b, OP_LT);
    emit_to(b, OP_JZ, label);
}

/* The machine: an operand stack, a frame stack for calls, a heap. */
struct frame {
    int ret;                      /* code address to return to */
    int sp_base;                  /* operand stack height at the call */
    int64_t locals[LOCALS];
};

static int64_t stack[STACK_MAX];
static struct frame frames[FRAME_MAX];
static int64_t heap[HEAP_WORDS];

static int64_t run(const int64_t *code)
{
    int pc = 0, sp = 0, fp = 0;
    int64_t a, b;

    frames[0].ret = -1;
    frames[0].sp_base = 0;
    for (;;) {
        switch ((enum op)code[pc++]) {
        case OP_HALT:
            return sp > 0 ? stack[sp - 1] : 0;
        case OP_PUSH:
            stack[sp++] = code[pc++];
            break;
        case OP_POP:
            sp--;
            break;
        case OP_DUP:
            stack[sp] = stack[sp - 1];
            sp++;
            break;
        case OP_SWAP:
            a = stack[sp - 1];
            stack[sp - 1] = stack[sp - 2];
            stack[sp - 2] = a;
            break;
        case OP_OVER:
            stack[sp] = stack[sp - 2];
            sp++;
            break;
        case OP_LOAD:
            stack[sp++] = frames[fp].locals[code[pc++]];
            break;
        case OP_STORE:
            frames[fp].locals[code[pc++]] = stack[--sp];
            break;
        case OP_ADD:
            b = stack[--sp];
            stack[sp - 1] += b;
            break;
        case OP_SUB:
            b = stack[--sp];
            stack[sp - 1] -= b;
            break;
        case OP_MUL:
            b = stack[--sp];
            stack[sp - 1] = (int64_t)((uint64_t)stack[sp - 1] * (uint64_t)b);
            break;
        case OP_DIV:
            b = stack[--sp];
            if (b == 0)
                die("division by zero");
            stack[sp - 1] /= b;
            break;
        case OP_MOD:
            b = stack[--sp];
            if (b == 0)
                die("division by zero");
            stack[sp - 1] %= b;
            break;
        case OP_AND:
            b = stack[--sp];
            stack[sp - 1] &= b;
            break;
        case OP_XOR:
            b = stack[--sp];
            stack[sp - 1] ^= b;
            break;
        case OP_SHL:
            b = stack[--sp];
            stack[sp - 1] = (int64_t)((uint64_t)stack[sp - 1] << (b & 63));
            break;
        case OP_SHR:
            b = stack[--sp];
            stack[sp - 1] = (int64_t)((uint64_t)stack[sp - 1] >> (b & 63));
            break;
        case OP_LT:
            b = stack[--sp];
            stack[sp - 1] = stack[sp - 1] < b;
            break;
        case OP_EQ:
            b = stack[--sp];
            stack[sp - 1] = stack[sp - 1] == b;
            break;
        case OP_NOT:
            stack[sp - 1] = !stack[sp - 1];
            break;
        case OP_JMP:
            pc = (int)code[pc];
            break;
        case OP_JZ:
            a = stack[--sp];
            pc = a == 0 ? (int)code[pc] : pc + 1;
            break;
        case OP_JNZ:
            a = stack[--sp];
            pc = a != 0 ? (int)code[pc] : pc + 1;
            break;
        case OP_CALL:
            if (fp + 1 >= FRAME_MAX)
                die("call stack overflow");
            fp++;
            frames[fp].ret = pc + 1;
            frames[fp].sp_base = sp;
            pc = (int)code[pc];
            break;
        case OP_RET:
            /* The result replaces the call's arguments: the callee's
               single argument sits just below sp_base. */
            a = stack[sp - 1];
            sp = frames[fp].sp_base;
            stack[sp - 1] = a;
            pc = frames[fp].ret;
            fp--;
            break;
        case OP_ARG:
            stack[sp++] = stack[frames[fp].sp_base - 1 - code[pc++]];
            break;
        case OP_MLOAD:
            a = stack[sp - 1];
            stack[sp - 1] = heap[(uint64_t)a % HEAP_WORDS];
            break;
        case OP_MSTORE:
            b = stack[--sp];
            a = stack[--sp];
            heap[(uint64_t)a % HEAP_WORDS] = b;
            break;
        default:
            die("bad opcode");
        }
        if (sp < 0 || sp >= STACK_MAX - 2)
            die("operand stack out of range");
    }
}

/* sieve(n): counts the primes below n with heap[0..n) as the sieve. */
static void build_sieve(struct builder *b, int64_t n)
{
    enum { L_CLEAR, L_OUTER, L_SKIP, L_INNER, L_INNER_END, L_COUNT, L_COUNT_LOOP, L_DONE };
    enum { I, J, N, PRIMES };

    b_init(b);
    emit_set(b, N, n);
    /* for (i = 0; i < n; i++) heap[i] = 1 */
    emit_set(b, I, 0);
    place(b, L_CLEAR);
    emit1(b, OP_LOAD, I);
    emit1(b, OP_PUSH, 1);
    emit(b, OP_MSTORE);
    emit1(b, OP_LOAD, I);
    emit1(b, OP_PUSH, 1);
    emit(b, OP_ADD);
    emit(b, OP_DUP);
    emit1(b, OP_STORE, I);
    emit1(b, OP_LOAD, N);
    emit(b, OP_LT);
    emit_to(b, OP_JNZ, L_CLEAR);
    /* for (i = 2; i * i < n; i++) if (heap[i]) for (j = i*i; j < n; j += i) heap[j] = 0 */
    emit_set(b, I, 2);
    place(b, L_OUTER);
    emit1(b, OP_LOAD, I);
    emit(b, OP_DUP);
    emit(b, OP_MUL);
    emit1(b, OP_LOAD, N);
    emit(b, OP_LT);
    emit_to(b, OP_JZ, L_COUNT);
    emit1(b, OP_LOAD, I);
    emit(b, OP_MLOAD);
    emit_to(b, OP_JZ, L_SKIP);
    emit1(b, OP_LOAD, I);
    emit(b, OP_DUP);
    emit(b, OP_MUL);
    emit1(b, OP_STORE, J);
    place(b, L_INNER);
    emit_exit_unless_lt(b, J, N, L_INNER_END);
    emit1(b, OP_LOAD, J);
    emit1(b, OP_PUSH, 0);
    emit(b, OP_MSTORE);
    emit1(b, OP_LOAD, J);
    emit1(b, OP_LOAD, I);
    emit(b, OP_ADD);
    emit1(b, OP_STORE, J);
    emit_to(b, OP_JMP, L_INNER);
    place(b, L_INNER_END);
    place(b, L_SKIP);
    emit_add_to(b, I, 1);
    emit_to(b, OP_JMP, L_OUTER);
    /* primes = count of heap[2..n) that are still 1 */
    place(b, L_COUNT);
    emit_set(b, PRIMES, 0);
    emit_set(b, I, 2);
    place(b, L_COUNT_LOOP);
    emit_exit_unless_lt(b, I, N, L_DONE);
    emit1(b, OP_LOAD, PRIMES);
    emit1(b, OP_LOAD, I);
    emit(b, OP_MLOAD);
    emit(b, OP_ADD);
    emit1(b, OP_STORE, PRIMES);
    emit_add_to(b, I, 1);
    emit_to(b, OP_JMP, L_COUNT_LOOP);
    place(b, L_DONE);
    emit1(b, OP_LOAD, PRIMES);
    emit(b, OP_HALT);
    b_finish(b);
}

/* fib(n) by naive recursion: calls and returns dominate. */
static void build_fib(struct builder *b, int64_t n)
{
    enum { L_FIB, L_SMALL };

    b_init(b);
    emit1(b, OP_PUSH, n);
    emit_to(b, OP_CALL, L_FIB);
    emit(b, OP_HALT);
    place(b, L_FIB);
    emit1(b, OP_ARG, 0);
    emit1(b, OP_PUSH, 2);
    emit(b, OP_LT);
    emit_to(b, OP_JNZ, L_SMALL);
    emit1(b, OP_ARG, 0);
    emit1(b, OP_PUSH, 1);
    emit(b, OP_SUB);
    emit_to(b, OP_CALL, L_FIB);
    emit1(b, OP_ARG, 0);
    emit1(b, OP_PUSH, 2);
    emit(b, OP_SUB);
    emit_to(b, OP_CALL, L_FIB);
    emit(b, OP_ADD);
    emit(b, OP_RET);
    place(b, L_SMALL);
    emit1(b, OP_ARG, 0);
    emit(b, OP_RET);
    b_finish(b);
}

/* An FNV-style hash over a pseudo-random walk of the heap: arithmetic,
   shifts and scattered memory traffic. */
static void build_hash(struct builder *b, int64_t steps)
{
    enum { L_LOOP, L_DONE };
    enum { K, H, X };

    b_init(b);
    emit_set(b, K, steps);
    emit_set(b, H, 1469598103934665603LL);
    emit_set(b, X, 88172645463325252LL);
    place(b, L_LOOP);
    emit1(b, OP_LOAD, K);
    emit_to(b, OP_JZ, L_DONE);
    /* x ^= x << 13; x ^= x >> 7; x ^= x << 17 */
    emit1(b, OP_LOAD, X);
    emit(b, OP_DUP);
    emit1(b, OP_PUSH, 13);
    emit(b, OP_SHL);
    emit(b, OP_XOR);
    emit(b, OP_DUP);
    emit1(b, OP_PUSH, 7);
    emit(b, OP_SHR);
    emit(b, OP_XOR);
    emit(b, OP_DUP);
    emit1(b, OP_PUSH, 17);
    emit(b, OP_SHL);
    emit(b, OP_XOR);
    emit(b, OP_DUP);
    emit1(b, OP_STORE, X);
    /* heap[x & 65535] += h; h = (heap[x & 65535] + (h ^ x)) * prime */
    emit1(b, OP_PUSH, 65535);
    emit(b, OP_AND);
    emit(b, OP_DUP);
    emit(b, OP_DUP);
    emit(b, OP_MLOAD);
    emit1(b, OP_LOAD, H);
    emit(b, OP_ADD);
    emit(b, OP_MSTORE);
    emit(b, OP_MLOAD);
    emit1(b, OP_LOAD, H);
    emit1(b, OP_LOAD, X);
    emit(b, OP_XOR);
    emit(b, OP_ADD);
    emit1(b, OP_PUSH, 1099511628211LL);
    emit(b, OP_MUL);
    emit1(b, OP_STORE, H);
    emit_add_to(b, K, -1);
    emit_to(b, OP_JMP, L_LOOP);
    place(b, L_DONE);
    emit1(b, OP_LOAD, H);
    emit(b, OP_HALT);
    b_finish(b);
}

int main(int argc, char **argv)
{
    static struct builder prog;
    long scale;
    char *end;

    if (argc != 2) {
        fputs("usage: interp SCALE\n", stderr);
        return 2;
    }
    errno = 0;
    scale = strtol(argv[1], &end, 10);
    if (errno != 0 || end == argv[1] || *end != '\0' || scale < 1 || scale > 1000) {
        fprintf(stderr, "interp: error: SCALE must be a whole number from 1 to 1000: '%s'\n", argv[1]);
        return 2;
    }
    for (long round = 0; round < scale; round++) {
        build_sieve(&prog, 400000);
        printf("sieve(400000) = %lld\n", (long long)run(prog.code));
        build_fib(&prog, 22);
        printf("fib(22) = %lld\n", (long long)run(prog.code));
        build_hash(&prog, 150000);
        printf("hash(150000) = %lld\n", (long long)run(prog.code));
    }
    return 0;
}
