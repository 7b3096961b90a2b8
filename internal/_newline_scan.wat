;; Newline search and counting for ReadFile's line scanner and Shell's output, with 128-bit SIMD.
;; Build: deno run -A tests/support/build_newline_wasm.ts (writes _newline_scan_wasm.ts).
;; The caller reads file chunks straight into `memory` (1 MiB) and asks:
;;   count(from, to)    -> the number of "\n" bytes in [from, to)
;;   find(from, to, n)  -> the position of the n-th (n >= 1) "\n" in [from, to),
;;                         or -1 - (the number found) when there are fewer.
;;   count_unless(from, to, stop)
;;                      -> count(from, to), or -1 when the byte `stop` occurs in
;;                         [from, to): Shell counts a chunk's lines and learns
;;                         whether it holds an ESC in one pass.
;; Blocks of 1 KiB are counted by adding the 0/-1 lanes of i8x16.eq (at most
;; 64 per lane, no overflow) and summed once per block, so the common case
;; costs a load, a compare and a subtract per 16 bytes.
(module
  (memory (export "memory") 16 16)

  ;; The sum of the 16 unsigned byte lanes of $v.
  (func $sum (param $v v128) (result i32)
    (local $w v128)
    (local.set $w
      (i32x4.extadd_pairwise_i16x8_u (i16x8.extadd_pairwise_i8x16_u (local.get $v))))
    (i32.add
      (i32.add (i32x4.extract_lane 0 (local.get $w)) (i32x4.extract_lane 1 (local.get $w)))
      (i32.add (i32x4.extract_lane 2 (local.get $w)) (i32x4.extract_lane 3 (local.get $w)))))

  ;; Newlines in the 1024 bytes at $p.
  (func $block (param $p i32) (result i32)
    (local $acc v128)
    (local $nl v128)
    (local $end i32)
    (local.set $nl (i8x16.splat (i32.const 10)))
    (local.set $end (i32.add (local.get $p) (i32.const 1024)))
    (loop $step
      (local.set $acc
        (i8x16.sub
          (i8x16.sub
            (i8x16.sub
              (i8x16.sub (local.get $acc)
                (i8x16.eq (v128.load offset=0 (local.get $p)) (local.get $nl)))
              (i8x16.eq (v128.load offset=16 (local.get $p)) (local.get $nl)))
            (i8x16.eq (v128.load offset=32 (local.get $p)) (local.get $nl)))
          (i8x16.eq (v128.load offset=48 (local.get $p)) (local.get $nl))))
      (local.set $p (i32.add (local.get $p) (i32.const 64)))
      (br_if $step (i32.lt_u (local.get $p) (local.get $end))))
    (call $sum (local.get $acc)))

  ;; The 16-bit mask of newline bytes among the 16 bytes at $p.
  (func $mask (param $p i32) (result i32)
    (i8x16.bitmask (i8x16.eq (v128.load (local.get $p)) (i8x16.splat (i32.const 10)))))

  (func (export "count") (param $p i32) (param $end i32) (result i32)
    (local $count i32)
    (block $blocks_done
      (loop $blocks
        (br_if $blocks_done (i32.gt_u (i32.add (local.get $p) (i32.const 1024)) (local.get $end)))
        (local.set $count (i32.add (local.get $count) (call $block (local.get $p))))
        (local.set $p (i32.add (local.get $p) (i32.const 1024)))
        (br $blocks)))
    (block $vectors_done
      (loop $vectors
        (br_if $vectors_done (i32.gt_u (i32.add (local.get $p) (i32.const 16)) (local.get $end)))
        (local.set $count (i32.add (local.get $count) (i32.popcnt (call $mask (local.get $p)))))
        (local.set $p (i32.add (local.get $p) (i32.const 16)))
        (br $vectors)))
    (block $bytes_done
      (loop $bytes
        (br_if $bytes_done (i32.ge_u (local.get $p) (local.get $end)))
        (local.set $count
          (i32.add (local.get $count) (i32.eq (i32.load8_u (local.get $p)) (i32.const 10))))
        (local.set $p (i32.add (local.get $p) (i32.const 1)))
        (br $bytes)))
    (local.get $count))

  (func (export "find") (param $p i32) (param $end i32) (param $n i32) (result i32)
    (local $found i32)
    (local $c i32)
    (local $mask i32)
    ;; Skip whole blocks that hold fewer newlines than are still needed.
    (block $blocks_done
      (loop $blocks
        (br_if $blocks_done (i32.gt_u (i32.add (local.get $p) (i32.const 1024)) (local.get $end)))
        (local.set $c (call $block (local.get $p)))
        (br_if $blocks_done (i32.ge_u (i32.add (local.get $found) (local.get $c)) (local.get $n)))
        (local.set $found (i32.add (local.get $found) (local.get $c)))
        (local.set $p (i32.add (local.get $p) (i32.const 1024)))
        (br $blocks)))
    (block $vectors_done
      (loop $vectors
        (br_if $vectors_done (i32.gt_u (i32.add (local.get $p) (i32.const 16)) (local.get $end)))
        (local.set $mask (call $mask (local.get $p)))
        (local.set $c (i32.popcnt (local.get $mask)))
        (if (i32.ge_u (i32.add (local.get $found) (local.get $c)) (local.get $n))
          (then
            ;; Drop the lowest set bits until the n-th newline is the lowest.
            (block $bits_done
              (loop $bits
                (br_if $bits_done
                  (i32.ge_u (i32.add (local.get $found) (i32.const 1)) (local.get $n)))
                (local.set $mask
                  (i32.and (local.get $mask) (i32.sub (local.get $mask) (i32.const 1))))
                (local.set $found (i32.add (local.get $found) (i32.const 1)))
                (br $bits)))
            (return (i32.add (local.get $p) (i32.ctz (local.get $mask))))))
        (local.set $found (i32.add (local.get $found) (local.get $c)))
        (local.set $p (i32.add (local.get $p) (i32.const 16)))
        (br $vectors)))
    (block $bytes_done
      (loop $bytes
        (br_if $bytes_done (i32.ge_u (local.get $p) (local.get $end)))
        (if (i32.eq (i32.load8_u (local.get $p)) (i32.const 10))
          (then
            (local.set $found (i32.add (local.get $found) (i32.const 1)))
            (if (i32.eq (local.get $found) (local.get $n))
              (then (return (local.get $p))))))
        (local.set $p (i32.add (local.get $p) (i32.const 1)))
        (br $bytes)))
    (i32.sub (i32.const -1) (local.get $found)))

  ;; Like $block, or -1 when one of the 1024 bytes at $p equals a lane of $stop.
  (func $block_unless (param $p i32) (param $stop v128) (result i32)
    (local $acc v128)
    (local $hit v128)
    (local $nl v128)
    (local $v v128)
    (local $end i32)
    (local.set $nl (i8x16.splat (i32.const 10)))
    (local.set $end (i32.add (local.get $p) (i32.const 1024)))
    (loop $step
      (local.set $v (v128.load offset=0 (local.get $p)))
      (local.set $acc (i8x16.sub (local.get $acc) (i8x16.eq (local.get $v) (local.get $nl))))
      (local.set $hit (v128.or (local.get $hit) (i8x16.eq (local.get $v) (local.get $stop))))
      (local.set $v (v128.load offset=16 (local.get $p)))
      (local.set $acc (i8x16.sub (local.get $acc) (i8x16.eq (local.get $v) (local.get $nl))))
      (local.set $hit (v128.or (local.get $hit) (i8x16.eq (local.get $v) (local.get $stop))))
      (local.set $v (v128.load offset=32 (local.get $p)))
      (local.set $acc (i8x16.sub (local.get $acc) (i8x16.eq (local.get $v) (local.get $nl))))
      (local.set $hit (v128.or (local.get $hit) (i8x16.eq (local.get $v) (local.get $stop))))
      (local.set $v (v128.load offset=48 (local.get $p)))
      (local.set $acc (i8x16.sub (local.get $acc) (i8x16.eq (local.get $v) (local.get $nl))))
      (local.set $hit (v128.or (local.get $hit) (i8x16.eq (local.get $v) (local.get $stop))))
      (local.set $p (i32.add (local.get $p) (i32.const 64)))
      (br_if $step (i32.lt_u (local.get $p) (local.get $end))))
    (if (v128.any_true (local.get $hit)) (then (return (i32.const -1))))
    (call $sum (local.get $acc)))

  (func (export "count_unless") (param $p i32) (param $end i32) (param $stop i32) (result i32)
    (local $count i32)
    (local $c i32)
    (local $v v128)
    (local $stops v128)
    (local.set $stops (i8x16.splat (local.get $stop)))
    (block $blocks_done
      (loop $blocks
        (br_if $blocks_done (i32.gt_u (i32.add (local.get $p) (i32.const 1024)) (local.get $end)))
        (local.set $c (call $block_unless (local.get $p) (local.get $stops)))
        (if (i32.lt_s (local.get $c) (i32.const 0)) (then (return (i32.const -1))))
        (local.set $count (i32.add (local.get $count) (local.get $c)))
        (local.set $p (i32.add (local.get $p) (i32.const 1024)))
        (br $blocks)))
    (block $vectors_done
      (loop $vectors
        (br_if $vectors_done (i32.gt_u (i32.add (local.get $p) (i32.const 16)) (local.get $end)))
        (local.set $v (v128.load (local.get $p)))
        (if (v128.any_true (i8x16.eq (local.get $v) (local.get $stops)))
          (then (return (i32.const -1))))
        (local.set $count (i32.add (local.get $count) (i32.popcnt (call $mask (local.get $p)))))
        (local.set $p (i32.add (local.get $p) (i32.const 16)))
        (br $vectors)))
    (block $bytes_done
      (loop $bytes
        (br_if $bytes_done (i32.ge_u (local.get $p) (local.get $end)))
        (local.set $c (i32.load8_u (local.get $p)))
        (if (i32.eq (local.get $c) (i32.and (local.get $stop) (i32.const 255)))
          (then (return (i32.const -1))))
        (local.set $count (i32.add (local.get $count) (i32.eq (local.get $c) (i32.const 10))))
        (local.set $p (i32.add (local.get $p) (i32.const 1)))
        (br $bytes)))
    (local.get $count))
)
