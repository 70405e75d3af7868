{-# LANGUAGE BangPatterns #-}
-- sparks.hs: parallel work built from sparks, for Hecscope test eventlogs.
--
-- Several phases, so the spark counters and (with -lf) the full spark events
-- have some structure over time:
--   1. nfib with `par`/`pseq` down to a threshold (many small sparks; most
--      are evaluated by their parent first and fizzle),
--   2. parMap rdeepseq over a list of independent jobs (medium sparks that
--      idle capabilities convert),
--   3. parListChunk over a list (chunk sparks),
--   4. 20000 sparks on already-evaluated values ("dud" sparks),
--   5. sparks on thunks that are never demanded (with -N1 they are GC'd,
--      with -N2/-N4 idle capabilities may run them),
--   6. a smaller nfib again.
-- With ROUNDS > 1, phase 3 is followed by ROUNDS - 1 more parListChunk rounds
-- on fresh lists (about 15 MB of allocation each): more collections for the
-- rts-summary logs, whose GC counts must be big enough to compare. (The nfib
-- argument hardly changes the allocation: nfib works on unboxed Ints.)
--
-- Usage: sparks [N [ROUNDS]]   (defaults: N = 32, the nfib argument; ROUNDS = 1)
module Main (main) where

import Control.Monad (forM_)
import Control.Parallel (par, pseq)
import Control.Parallel.Strategies
import System.Environment (getArgs)

-- | Parallel naive fibonacci-like function; sparks down to depth 'thr'.
nfib :: Int -> Int -> Int
nfib thr n
  | n < 2 = 1
  | n < thr = seqFib n
  | otherwise = a `par` (b `pseq` (a + b + 1))
  where
    a = nfib thr (n - 1)
    b = nfib thr (n - 2)

seqFib :: Int -> Int
seqFib n
  | n < 2 = 1
  | otherwise = seqFib (n - 1) + seqFib (n - 2) + 1

-- | A medium-sized job: sum of a collatz-ish sequence lengths.
job :: Int -> Int
job k = sum [collatzLen x | x <- [k * 20000 .. k * 20000 + 15000]]

collatzLen :: Int -> Int
collatzLen = go 0
  where
    go !acc 1 = acc
    go !acc m
      | even m = go (acc + 1) (m `div` 2)
      | otherwise = go (acc + 1) (3 * m + 1)

main :: IO ()
main = do
  args <- getArgs
  let n = case args of
        (a : _) -> read a
        [] -> 32
      rounds = case args of
        (_ : r : _) -> read r
        _ -> 1 :: Int
  let r1 = nfib 18 n
  r1 `pseq` putStrLn ("nfib " ++ show n ++ " = " ++ show r1)
  let r2 = parMap rdeepseq job [1 .. 64]
  putStrLn ("parMap jobs = " ++ show (sum r2))
  -- Mostly already-evaluated elements: sparks on them are duds / fizzle.
  let xs = [1 .. 20000] :: [Int]
      ys = map (* 2) xs
  sum xs `pseq` return ()
  let r3 = (xs ++ ys) `using` parListChunk 50 rseq
  putStrLn ("parListChunk = " ++ show (sum r3))
  -- ROUNDS - 1 extra rounds of phase 3 on fresh lists (none by default).
  forM_ [1 .. rounds - 1] $ \k -> do
    let zs = [1 + k .. 20000 + k] :: [Int]
        r5 = (zs ++ map (* 3) zs) `using` parListChunk 50 rseq
    putStrLn ("extra round " ++ show k ++ " = " ++ show (sum r5))
  -- Sparks on values that are already evaluated are "duds".
  foldr (\x acc -> x `par` acc) () xs `pseq` putStrLn "dud sparks done"
  -- Sparks on thunks that are never demanded: with -N1 nobody steals them,
  -- so they are GC'd (or converted by an idle capability with -N2/-N4).
  let unused = [job k | k <- [100 .. 163]]
  foldr (\x acc -> x `par` acc) () unused `pseq` putStrLn "unused sparks created"
  r4 <- return $! nfib 18 (n - 2)
  putStrLn ("nfib again = " ++ show r4)
