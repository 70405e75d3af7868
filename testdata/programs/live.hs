{-# LANGUAGE BangPatterns #-}
-- live.hs: a program watched while it runs (Hecscope's live tests).
--
-- Phase 1: PAIRS pairs of threads ping-pong over MVars ROUNDS times
-- (scheduler events: enough to fill the RTS's per-capability eventlog
-- buffers, which it writes out only when full or at exit), with a user
-- marker "phase 1 done". Then it prints "waiting" and blocks reading a line
-- from standard input: the test sees its events while it is still running.
-- Phase 2: the same again, marker "phase 2 done", and exit.
--
-- With a socket path as the third argument it first serves its eventlog on
-- that Unix socket (eventlogwriter.c: the RTS's endEventLogging /
-- startEventLogging with an EventLogWriter of its own), waiting for a client.
--
-- Usage: live ROUNDS PAIRS [SOCKET]
module Main (main) where

import Control.Concurrent
import Control.Monad
import Debug.Trace (traceMarkerIO)
import Foreign.C.String (CString, withCString)
import System.Environment (getArgs)
import System.IO

foreign import ccall safe "hecscope_serve_eventlog" serveEventlog :: CString -> IO ()

pingPong :: Int -> Int -> IO ()
pingPong rounds pairs = do
  caps <- getNumCapabilities
  done <- newEmptyMVar
  forM_ [0 .. pairs - 1] $ \i -> do
    ping <- newEmptyMVar
    pong <- newEmptyMVar
    let cap = i `mod` caps
    _ <- forkOn cap $ replicateM_ rounds $ do
      v <- takeMVar ping
      putMVar pong (v + 1 :: Int)
    forkOn cap $ do
      let go !k = when (k < rounds) (putMVar ping k >> takeMVar pong >> go (k + 1))
      go 0
      putMVar done ()
  replicateM_ pairs (takeMVar done)

main :: IO ()
main = do
  args <- getArgs
  let rounds = read (args !! 0)
      pairs = read (args !! 1)
  case drop 2 args of
    (path : _) -> withCString path serveEventlog
    [] -> return ()
  pingPong rounds pairs
  traceMarkerIO "phase 1 done"
  putStrLn "waiting" >> hFlush stdout
  _ <- getLine
  pingPong rounds pairs
  traceMarkerIO "phase 2 done"
