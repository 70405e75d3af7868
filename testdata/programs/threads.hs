{-# LANGUAGE BangPatterns #-}
-- threads.hs: many Haskell threads talking over MVars and STM, for Hecscope
-- test eventlogs.
--
--   * 200 worker threads (forkIO), some labelled with GHC.Conc.labelThread,
--   * a pipeline of MVars (each worker takes from its inbox and puts to the
--     next worker's inbox), so threads block on MVar and get woken up,
--   * an STM counter (TVar) that a "waiter" thread blocks on with `retry`
--     until all workers are done, plus a TVar-based semaphore,
--   * 200 threadDelay sleepers contending for 8 slots of the semaphore (in
--     the threaded RTS threadDelay blocks on an MVar of the timer manager),
--   * 200 short-lived threads sending results over a Chan (fan-in),
--   * traceMarkerIO / traceEventIO user markers and messages (Debug.Trace)
--     marking the phases.
--
-- Usage: threads [WORKERS [ROUNDS]]   (defaults: 200 workers, 20 rounds)
module Main (main) where

import Control.Concurrent
import Control.Concurrent.STM
import Control.Monad
import Debug.Trace (traceEventIO, traceMarkerIO)
import GHC.Conc (labelThread)
import System.Environment (getArgs)

-- | A pipeline worker: receives a token, does a little work, passes it on.
pipeWorker :: Int -> Int -> MVar Int -> MVar Int -> TVar Int -> IO ()
pipeWorker rounds me inbox outbox done = do
  forM_ [1 .. rounds] $ \_ -> do
    tok <- takeMVar inbox
    let !tok' = tok + busyWork me
    putMVar outbox tok'
  atomically $ modifyTVar' done (+ 1)

busyWork :: Int -> Int
busyWork k = sum [(k * i) `mod` 7 | i <- [1 .. 200 :: Int]]

-- | Takes a slot of the TVar semaphore (retrying while it is 0), sleeps a bit,
-- releases it.
sleeper :: TVar Int -> TVar Int -> Int -> IO ()
sleeper sem done i = do
  atomically $ do
    n <- readTVar sem
    when (n <= 0) retry
    writeTVar sem (n - 1)
  threadDelay (500 + 100 * (i `mod` 10))
  atomically $ modifyTVar' sem (+ 1)
  atomically $ modifyTVar' done (+ 1)

main :: IO ()
main = do
  args <- getArgs
  let (workers, rounds) = case args of
        (w : r : _) -> (read w, read r)
        [w] -> (read w, 20)
        [] -> (200, 20)
  me <- myThreadId
  labelThread me "main"
  traceMarkerIO "start"

  -- Phase 1: a pipeline of `workers` threads connected by MVars; `rounds`
  -- tokens are fed in at box 0 by a feeder thread and collected from the
  -- last box by main.
  traceEventIO "phase pipeline: begin"
  boxes <- replicateM (workers + 1) newEmptyMVar
  pipeDone <- newTVarIO (0 :: Int)
  forM_ (zip3 [0 ..] boxes (tail boxes)) $ \(i, inbox, outbox) -> do
    t <- forkIO (pipeWorker rounds i inbox outbox pipeDone)
    when (i `mod` 10 == 0) $ labelThread t ("pipe-" ++ show i)
  -- A watcher that blocks in STM (retry) until every worker is finished.
  watcherDone <- newEmptyMVar
  w <- forkIO $ do
    atomically $ do
      n <- readTVar pipeDone
      when (n < workers) retry
    traceEventIO "watcher: pipeline finished"
    putMVar watcherDone ()
  labelThread w "stm-watcher"
  f <- forkIO $ forM_ [1 .. rounds] $ \k -> putMVar (head boxes) k
  labelThread f "feeder"
  results <- forM [1 .. rounds] $ \_ -> takeMVar (last boxes)
  takeMVar watcherDone
  traceEventIO ("phase pipeline: end, checksum " ++ show (sum results))
  traceMarkerIO "pipeline done"

  -- Phase 2: sleepers contending on a TVar semaphore of 8 slots.
  traceEventIO "phase sleepers: begin"
  sem <- newTVarIO (8 :: Int)
  sleepDone <- newTVarIO (0 :: Int)
  forM_ [1 .. workers] $ \i -> do
    t <- forkIO (sleeper sem sleepDone i)
    when (i `mod` 25 == 0) $ labelThread t ("sleeper-" ++ show i)
  atomically $ do
    n <- readTVar sleepDone
    when (n < workers) retry
  traceEventIO "phase sleepers: end"
  traceMarkerIO "sleepers done"

  -- Phase 3: a Chan-based fan-in from short-lived threads.
  ch <- newChan
  forM_ [1 .. workers] $ \i -> forkIO (writeChan ch (busyWork i))
  total <- sum <$> replicateM workers (readChan ch)
  traceMarkerIO "end"
  putStrLn ("threads done, total " ++ show total)
