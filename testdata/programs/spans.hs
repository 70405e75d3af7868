{-# LANGUAGE BangPatterns #-}
-- spans.hs: a small "server" whose threads mark user spans, for Hecscope's
-- per-thread rows and user spans (test eventlogs).
--
-- A span is a pair of user messages "START name" / "STOP name" from the same
-- Haskell thread (traceEventIO, or traceMarkerIO for markers); spans nest.
--
--   * main (labelled "main") wraps its phases in markers:
--     START/STOP phase-setup, phase-serve, phase-shutdown;
--   * 6 workers labelled "worker-1" .. "worker-6": worker-1..3 with forkIO
--     (they may migrate), worker-4 forkOn 0, worker-5 and worker-6 forkOn 1;
--   * main feeds REQUESTS requests into a Chan in bursts of 20 (with a
--     threadDelay between bursts, so the workers also block on the Chan);
--   * each request is a span "request" with nested spans "parse" and
--     "compute", and "lookup" inside "compute". "parse" and "compute"
--     allocate (strings, a Data.Map); "lookup" holds a shared MVar for a
--     while (so workers may block on it); every request with r mod 7 == 3 does a threadDelay
--     inside "compute" (a span across a block, maybe a migration).
--
-- Deliberate edge cases (always on the same thread):
--   * worker-2 starts with "STOP orphan" (a STOP without START);
--   * worker-1 nests a second "request" inside its first "request"
--     (same-name nesting);
--   * worker-6 emits "START never-stopped" when it is told to shut down and
--     then finishes without a STOP;
--   * "request" spans of different workers overlap in time.
--
-- Usage: spans [REQUESTS]   (default 400)
module Main (main) where

import Control.Concurrent
import Control.Exception (evaluate)
import Control.Monad
import qualified Data.Map.Strict as M
import Debug.Trace (traceEventIO, traceMarkerIO)
import GHC.Conc (labelThread)
import System.Environment (getArgs)

-- | "Parsing": render some numbers and split them into words again.
parse :: Int -> Int
parse r = sum (map length (words (unwords (map show [r .. r + 40 + r `mod` 60]))))

-- | "Computing": build and fold a Data.Map; size depends on the request.
compute :: Int -> Int -> Int
compute r p =
  let k = 30 + (r * 37) `mod` 300
      m = M.fromList [((i * p + r) `mod` 257, i) | i <- [1 .. k]]
   in M.foldl' (+) (M.size m) m

handle :: Int -> Int -> MVar (M.Map Int Int) -> Int -> IO Int
handle me n db r = do
  traceEventIO "START request"
  traceEventIO "START parse"
  p <- evaluate (parse r)
  traceEventIO "STOP parse"
  -- Same-name nesting, once: worker-1's first request has a sub-request.
  when (me == 1 && n == 0) $ do
    traceEventIO "START request"
    _ <- evaluate (compute (r + 1) (p + 1))
    traceEventIO "STOP request"
  traceEventIO "START compute"
  c <- evaluate (compute r p)
  when (r `mod` 7 == 3) $ threadDelay 300
  traceEventIO "START lookup"
  -- Holds the shared MVar while it works (a few microseconds), so that
  -- workers on the other capability sometimes block on it.
  v <- modifyMVar db $ \m -> do
    let !m' = M.insertWith (+) (c `mod` 64) 1 m
    x <- evaluate (M.foldl' (+) 0 m' + parse (c `mod` 1000))
    return (m', x)
  traceEventIO "STOP lookup"
  traceEventIO "STOP compute"
  traceEventIO "STOP request"
  return (c + v)

worker :: Int -> Chan (Maybe Int) -> Chan Int -> MVar (M.Map Int Int) -> MVar Int -> IO ()
worker me queue results db done = do
  when (me == 2) $ traceEventIO "STOP orphan"
  let loop !n = do
        mr <- readChan queue
        case mr of
          Just r -> do
            x <- handle me n db r
            writeChan results x
            loop (n + 1)
          Nothing -> do
            when (me == 6) $ traceEventIO "START never-stopped"
            putMVar done n
  loop (0 :: Int)

main :: IO ()
main = do
  args <- getArgs
  let requests = case args of
        (a : _) -> read a
        [] -> 400 :: Int
      nworkers = 6 :: Int
  me <- myThreadId
  labelThread me "main"

  traceMarkerIO "START phase-setup"
  queue <- newChan
  results <- newChan
  db <- newMVar M.empty
  dones <- forM [1 .. nworkers] $ \i -> do
    done <- newEmptyMVar
    let body = worker i queue results db done
    t <- case i of
      4 -> forkOn 0 body
      5 -> forkOn 1 body
      6 -> forkOn 1 body
      _ -> forkIO body
    labelThread t ("worker-" ++ show i)
    return done
  traceMarkerIO "STOP phase-setup"

  traceMarkerIO "START phase-serve"
  forM_ [1 .. requests] $ \r -> do
    writeChan queue (Just r)
    when (r `mod` 20 == 0) $ threadDelay 1000
  total <- sum <$> replicateM requests (readChan results)
  traceMarkerIO "STOP phase-serve"

  traceMarkerIO "START phase-shutdown"
  replicateM_ nworkers (writeChan queue Nothing)
  handled <- mapM takeMVar dones
  traceMarkerIO "STOP phase-shutdown"
  putStrLn ("spans done: " ++ show handled ++ " requests per worker, total " ++ show total)
