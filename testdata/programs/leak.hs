{-# LANGUAGE BangPatterns #-}
-- leak.hs: a program with deliberate space leaks, for Hecscope heap-profile
-- test eventlogs (-hT, and profiled -hc/-hy/-hd/-hm/-hr/-hb/-p).
--
-- Phases (each is a top-level function, so -fprof-auto gives each its own
-- cost centre, and there are a few explicit SCCs too):
--   1. buildCatalog: a Data.Map of records that grows and is retained until
--      the very end (a "growing Map" leak: live data rises steadily),
--   2. countWords: word counts in a *lazy* Map with insertWith (+), which
--      builds chains of (+) thunks (THUNK bands), released after phase 2,
--   3. meanLeak: the classic `sum xs / length xs` leak: the list is fully
--      materialised because it is used twice (a big (:) / D# band that
--      appears and then disappears),
--   4. history: a lazy accumulator kept in an IORef (modifyIORef, not the
--      strict variant) that is only forced at the end.
-- Between the phases `spin` burns CPU while allocating only short-lived
-- garbage, so the profile has plateaus and the -p time profile has a clear
-- hot spot. The final lines use everything that was retained again, so the
-- biographical profile (-hb) has LAG/USE/DRAG/VOID parts.
-- SCALE scales both the data sizes and the spin work; the run time is
-- roughly linear in it (about 0.8 s non-profiled at 5000, about 1 s
-- profiled at 1200 on the machine the logs were made on).
--
-- With the argument "fixed" after SCALE the same work runs with the leaks
-- fixed (the "after" run of testdata/compare/): the catalog's report is made
-- as soon as it is built, so the catalog is not kept to the end; words are
-- counted strictly; the mean is one strict pass; the history is forced as it
-- grows (modifyIORef').
--
-- Usage: leak [SCALE [fixed]]   (default SCALE = 5000)
module Main (main) where

import Control.Monad (forM_)
import Data.IORef
import Data.List (foldl')
import qualified Data.Map as M
import qualified Data.Map.Strict as MS
import System.Environment (getArgs)

data Entry = Entry
  { entryKey :: !Int
  , entryName :: String
  , entryTags :: [String]
  }

mkEntry :: Int -> Entry
mkEntry i = Entry i ("entry-" ++ show i) [tagFor (i `mod` 7), tagFor (i `mod` 13)]

tagFor :: Int -> String
tagFor k = "tag" ++ show k

-- | Phase 1: a catalog that grows and is kept alive until the end.
buildCatalog :: Int -> M.Map Int Entry
buildCatalog n = foldl' (\m i -> M.insert i (mkEntry i) m) M.empty [1 .. n]

-- | Phase 2, fixed: every count forced as it is stored.
countWordsStrict :: [String] -> M.Map String Int
countWordsStrict = foldl' (\m w -> MS.insertWith (+) w 1 m) M.empty

-- | Phase 2: lazy counting; the values are chains of (+) thunks.
countWords :: [String] -> M.Map String Int
countWords = foldl' (\m w -> M.insertWith (+) w 1 m) M.empty

wordsOf :: Int -> [String]
wordsOf n = [ {-# SCC "mkWord" #-} ("w" ++ show ((i * 7919) `mod` 997)) | i <- [1 .. n]]

-- | Phase 3: the list is used twice, so it is retained completely.
meanLeak :: Int -> Double
meanLeak n = sum xs / fromIntegral (length xs)
  where
    xs = {-# SCC "samples" #-} [fromIntegral (i `mod` 1000) * 0.5 | i <- [1 .. n]] :: [Double]

-- | Phase 3, fixed: sum and length in one strict pass; the list is never held.
meanStrict :: Int -> Double
meanStrict n = total / fromIntegral count
  where
    (total, count) = foldl' (\(!s, !c) x -> (s + x, c + 1 :: Int)) (0, 0) xs
    xs = {-# SCC "samples" #-} [fromIntegral (i `mod` 1000) * 0.5 | i <- [1 .. n]] :: [Double]

-- | Phase 4, fixed: each new head forced as it is stored.
historyStrict :: IORef [Int] -> Int -> IO ()
historyStrict ref n = forM_ [1 .. n] $ \i -> modifyIORef' ref (\h -> let !x = i * 3 in x : h)

-- | Phase 4: a lazy accumulator in an IORef.
history :: IORef [Int] -> Int -> IO ()
history ref n = forM_ [1 .. n] $ \i -> modifyIORef ref (\h -> (i * 3) : h)

-- | CPU work that only allocates short-lived garbage, run between the phases
-- so the heap profile has plateaus. (Censuses are due every -i seconds of
-- mutator time but are only taken at the next GC, so this must allocate.)
spin :: Int -> Int
spin n = go 0 1
  where
    go :: Int -> Int -> Int
    go !acc i
      | i > n = acc
      | otherwise = go ((acc * 31 + bump i) `mod` 1000003) (i + 1)

-- | Allocates a little (a String) on every 64th call only.
-- INLINE: -fprof-auto gives no automatic SCC to INLINE bindings, so this
-- per-iteration helper does not slow the profiled build down too much.
{-# INLINE bump #-}
bump :: Int -> Int
bump i
  | i `mod` 64 == 0 = length (show i)
  | otherwise = i `mod` 10

catalogReport :: M.Map Int Entry -> Int
catalogReport m =
  M.foldl' (\acc e -> acc + entryKey e `mod` 2 + length (entryName e) + length (entryTags e)) 0 m

spinScale :: Int
spinScale = 4000

main :: IO ()
main = do
  args <- getArgs
  let scale = case args of
        (a : _) -> read a
        [] -> 5000
      fixed = drop 1 args == ["fixed"]
  if fixed then mainFixed scale else mainLeaky scale

mainLeaky :: Int -> IO ()
mainLeaky scale = do
  -- Phase 1
  let catalog = buildCatalog (4 * scale)
  putStrLn ("catalog size: " ++ show (M.size catalog))
  putStrLn ("spin: " ++ show (spin (spinScale * scale)))
  -- Phase 2
  let counts = countWords (wordsOf (20 * scale))
  putStrLn ("distinct words: " ++ show (M.size counts))
  putStrLn ("total words: " ++ show (sum (M.elems counts)))
  putStrLn ("spin: " ++ show (spin (spinScale * scale)))
  -- Phase 3
  putStrLn ("mean: " ++ show (meanLeak (30 * scale)))
  putStrLn ("spin: " ++ show (spin (spinScale * scale)))
  -- Phase 4
  ref <- newIORef []
  history ref (10 * scale)
  h <- readIORef ref
  putStrLn ("history length: " ++ show (length h))
  putStrLn ("spin: " ++ show (spin (spinScale * scale)))
  -- Everything retained above is only now used again.
  putStrLn ("catalog report: " ++ show (catalogReport catalog))
  putStrLn ("history sum: " ++ show (sum h))

-- | The same work with the leaks fixed: what is printed is the same.
mainFixed :: Int -> IO ()
mainFixed scale = do
  -- Phase 1: the catalog's report at once; nothing keeps the catalog.
  let catalog = buildCatalog (4 * scale)
      !size = M.size catalog
      !catalogTotal = catalogReport catalog
  putStrLn ("catalog size: " ++ show size)
  putStrLn ("spin: " ++ show (spin (spinScale * scale)))
  -- Phase 2
  let counts = countWordsStrict (wordsOf (20 * scale))
  putStrLn ("distinct words: " ++ show (M.size counts))
  putStrLn ("total words: " ++ show (sum (M.elems counts)))
  putStrLn ("spin: " ++ show (spin (spinScale * scale)))
  -- Phase 3
  putStrLn ("mean: " ++ show (meanStrict (30 * scale)))
  putStrLn ("spin: " ++ show (spin (spinScale * scale)))
  -- Phase 4: the history's sum kept, not its list.
  ref <- newIORef []
  historyStrict ref (10 * scale)
  h <- readIORef ref
  let !historyLength = length h
      !historySum = sum h
  writeIORef ref []
  putStrLn ("history length: " ++ show historyLength)
  putStrLn ("spin: " ++ show (spin (spinScale * scale)))
  putStrLn ("catalog report: " ++ show catalogTotal)
  putStrLn ("history sum: " ++ show historySum)
