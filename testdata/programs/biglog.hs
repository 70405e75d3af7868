{-# LANGUAGE BangPatterns #-}
-- biglog.hs: a scheduler-heavy program used to produce a BIG eventlog
-- (hundreds of MB) for benchmarking Hecscope. Not used for committed logs.
--
-- Every "round" is one MVar ping-pong between two threads of a pair: the
-- pinger puts into `ping` and blocks taking `pong`; the ponger takes `ping`
-- and puts `pong`. Each handoff makes the RTS log stop-thread (blocked on
-- MVar), wakeup-thread, run-thread events. Most pairs are pinned to one
-- capability with forkOn (fast handoffs), a few pairs straddle two
-- capabilities (cross-capability wakeups), and some unpinned threads just
-- `yield` in a loop (yield stops, and migrations between capabilities).
--
-- Usage: biglog ROUNDS [PAIRS [YIELDERS]]
--   ROUNDS   ping-pong rounds per pair (default 10000); the log size is
--            roughly proportional to ROUNDS * PAIRS
--   PAIRS    number of ping-pong pairs (default 16)
--   YIELDERS number of yield-loop threads (default 4), each yielding ROUNDS times
module Main (main) where

import Control.Concurrent
import Control.Monad
import GHC.Conc (labelThread)
import System.Environment (getArgs)

pinger :: Int -> MVar Int -> MVar Int -> IO ()
pinger rounds ping pong = go 0 0
  where
    go !i !acc
      | i >= rounds = return ()
      | otherwise = do
          putMVar ping i
          v <- takeMVar pong
          go (i + 1) (acc + v)

ponger :: Int -> MVar Int -> MVar Int -> MVar () -> IO ()
ponger rounds ping pong done = do
  replicateM_ rounds $ do
    v <- takeMVar ping
    putMVar pong (v + 1)
  putMVar done ()

yielder :: Int -> MVar () -> IO ()
yielder rounds done = do
  let go !i = when (i < rounds) (yield >> go (i + 1))
  go (0 :: Int)
  putMVar done ()

main :: IO ()
main = do
  args <- getArgs
  let num k d = if length args > k then read (args !! k) else d
      rounds = num 0 10000
      pairs = num 1 16
      yielders = num 2 4
  caps <- getNumCapabilities
  done <- newEmptyMVar
  forM_ [0 .. pairs - 1] $ \i -> do
    ping <- newEmptyMVar
    pong <- newEmptyMVar
    -- Every 4th pair straddles two capabilities (if there are several).
    let c1 = i `mod` caps
        c2 = if i `mod` 4 == 3 then (i + 1) `mod` caps else c1
    t1 <- forkOn c1 (pinger rounds ping pong)
    t2 <- forkOn c2 (ponger rounds ping pong done)
    labelThread t1 ("ping-" ++ show i)
    labelThread t2 ("pong-" ++ show i)
  forM_ [1 .. yielders] $ \i -> do
    t <- forkIO (yielder rounds done)
    labelThread t ("yield-" ++ show i)
  replicateM_ (pairs + yielders) (takeMVar done)
  putStrLn ("biglog done: " ++ show rounds ++ " rounds x " ++ show pairs ++ " pairs")
