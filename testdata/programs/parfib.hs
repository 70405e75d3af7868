-- parfib.hs: the classic parallel fib, for Hecscope test eventlogs.
--
-- Every call above a threshold sparks its first half with `par` and
-- evaluates the second with `pseq`, so all capabilities run spark threads
-- and each collection stops them all: with -N8 on fewer cores many
-- capabilities stay parked in a collection long after their part of it is
-- done (issue #25: GC overstated).
--
-- Usage: parfib [N [THRESHOLD]]   (defaults: N = 30, THRESHOLD = 15)
module Main (main) where

import Control.Parallel (par, pseq)
import System.Environment (getArgs)

parfib :: Int -> Int -> Integer
parfib thr n
  | n < 2 = 1
  | n < thr = seqfib n
  | otherwise = a `par` (b `pseq` (a + b + 1))
  where
    a = parfib thr (n - 1)
    b = parfib thr (n - 2)

-- Integer arithmetic allocates, so the run has collections to look at.
seqfib :: Int -> Integer
seqfib n
  | n < 2 = 1
  | otherwise = seqfib (n - 1) + seqfib (n - 2) + 1

main :: IO ()
main = do
  args <- getArgs
  let n = case args of
        (a : _) -> read a
        [] -> 30
      thr = case args of
        (_ : t : _) -> read t
        _ -> 15
  let r = parfib thr n
  r `pseq` putStrLn ("parfib " ++ show n ++ " = " ++ show r)
