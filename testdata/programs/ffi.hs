{-# LANGUAGE BangPatterns #-}
-- ffi.hs: Haskell threads making blocking foreign calls, for Hecscope test
-- eventlogs (per-thread state rows).
--
-- A *safe* foreign call releases the capability: the RTS logs STOP_THREAD
-- with the status "blocked in foreign call" (BlockedOnCCall), another OS
-- thread (task) may run other Haskell threads on that capability meanwhile,
-- and the thread is run again (RUN_THREAD) when the call returns. An *unsafe*
-- call keeps the capability: nothing is logged and the capability is busy.
--
--   * "sleeper-1" .. "sleeper-4": ROUNDS times: some Haskell work, then a
--     safe usleep(2000 + 500 * k) wrapped in a user span
--     "START ffi-sleep" / "STOP ffi-sleep"; sleeper-1 and sleeper-2 with
--     forkIO, sleeper-3 forkOn 0, sleeper-4 forkOn 1;
--   * "bound-1": a bound thread (forkOS) doing the same with a safe usleep(1500);
--   * "unsafe-1": ROUNDS times: some Haskell work, an *unsafe* usleep(200)
--     (blocks its capability, logs nothing) and unsafe sin() calls;
--   * "cruncher": non-allocating Haskell work in slices with `yield` in
--     between, so there is something to run while the sleepers are in C;
--   * main ("main") waits for all of them.
--
-- Usage: ffi [ROUNDS]   (default 20)
module Main (main) where

import Control.Concurrent
import Control.Exception (evaluate)
import Control.Monad
import Debug.Trace (traceEventIO)
import Foreign.C.Types
import GHC.Conc (labelThread)
import System.Environment (getArgs)

foreign import ccall safe "unistd.h usleep" c_usleep :: CUInt -> IO CInt

foreign import ccall unsafe "unistd.h usleep" c_usleep_unsafe :: CUInt -> IO CInt

foreign import ccall unsafe "math.h sin" c_sin :: CDouble -> CDouble

-- | Some allocating Haskell work (a few hundred microseconds).
work :: Int -> IO Int
work k = evaluate (sum (map length (words (unwords (map show [k .. k + 300])))))

sleeper :: Int -> Int -> CUInt -> MVar () -> IO ()
sleeper rounds me usecs done = do
  forM_ [1 .. rounds] $ \i -> do
    _ <- work (me * 1000 + i)
    traceEventIO "START ffi-sleep"
    _ <- c_usleep usecs
    traceEventIO "STOP ffi-sleep"
  putMVar done ()

unsafeUser :: Int -> MVar () -> IO ()
unsafeUser rounds done = do
  forM_ [1 .. rounds] $ \i -> do
    _ <- work i
    _ <- c_usleep_unsafe 200
    let !s = sum [c_sin (fromIntegral (i * j)) | j <- [1 .. 100 :: Int]]
    when (s > 1000) $ putStrLn "unreachable"
  putMVar done ()

-- | Non-allocating Haskell work (a strict loop, ~100 microseconds).
spin :: Int -> Int
spin n = go 0 n
  where
    go :: Int -> Int -> Int
    go !i !acc
      | i >= 100000 = acc
      | otherwise = go (i + 1) ((acc * 31 + i) `mod` 1000003)

cruncher :: MVar () -> MVar () -> IO ()
cruncher stop done = loop 0
  where
    loop !n = do
      _ <- evaluate (spin n)
      yield
      s <- tryTakeMVar stop
      case s of
        Just () -> putMVar done ()
        Nothing -> loop (n + 1)

main :: IO ()
main = do
  args <- getArgs
  let rounds = case args of
        (a : _) -> read a
        [] -> 20 :: Int
  me <- myThreadId
  labelThread me "main"
  stop <- newEmptyMVar
  crunchDone <- newEmptyMVar
  c <- forkIO (cruncher stop crunchDone)
  labelThread c "cruncher"
  dones <- forM [1 .. 4] $ \k -> do
    done <- newEmptyMVar
    let body = sleeper rounds k (2000 + 500 * fromIntegral k) done
    t <- case k of
      3 -> forkOn 0 body
      4 -> forkOn 1 body
      _ -> forkIO body
    labelThread t ("sleeper-" ++ show k)
    return done
  boundDone <- newEmptyMVar
  b <- forkOS (sleeper rounds 5 1500 boundDone)
  labelThread b "bound-1"
  unsafeDone <- newEmptyMVar
  u <- forkIO (unsafeUser rounds unsafeDone)
  labelThread u "unsafe-1"
  mapM_ takeMVar (dones ++ [boundDone, unsafeDone])
  putMVar stop ()
  takeMVar crunchDone
  putStrLn "ffi done"
