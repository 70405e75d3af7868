{-# LANGUAGE BangPatterns #-}
-- profile.hs: a program with a varied call tree, for Hecscope's cost-centre
-- profile test data (`.prof` with and without -P, `-pj` JSON, and the
-- eventlog's time-profile samples of the same runs).
--
-- Built with -prof -fprof-auto, so every top-level function is a cost
-- centre. What the profile shows:
--   * a call tree several levels deep: main > runQueries > answer > lookupAll
--     > score > mixHash;
--   * mutual recursion: evalExpr calls evalArgs, which calls evalExpr again
--     (GHC 9.0.2's RTS folds a call to a cost centre already on the stack
--     into that entry, so the tree shows evalExpr > evalArgs > evalArgs.\
--     > evalExpr.\ but never evalExpr nested in itself);
--   * shared callees: mixHash is called from score and from checksum,
--     renderRow from report and from runQueries (meaningful caller views);
--   * a CAF: primeTable, a list of primes built once and used by two
--     callers (its cost sits under "CAF" in the tree);
--   * allocation-heavy parts (buildIndex: a Data.Map of strings; renderRow:
--     show and string concatenation) and compute-heavy ones (collatzMax, a
--     non-allocating loop; mixHash).
-- SCALE scales all the work; about 0.5-1 s profiled at the default.
--
-- With the argument "slow" after SCALE, collatzMax does four times the
-- work (the "after" run of testdata/compare/: one function made slower,
-- the rest the same).
--
-- Usage: profile [SCALE [slow]]   (default SCALE = 100)
module Main (main) where

import Data.List (foldl')
import qualified Data.Map.Strict as M
import System.Environment (getArgs)

data Expr = Lit Int | Add [Expr] | Mul [Expr] | Neg Expr

-- | The CAF: the primes below 40000 (sieve of Eratosthenes on lists),
-- computed once.
primeTable :: [Int]
primeTable = sieve [2 .. 40000]
  where
    sieve (p : xs)
      | p * p > 40000 = p : xs
      | otherwise = p : sieve [x | x <- xs, x `mod` p /= 0]
    sieve [] = []

-- | A tree of nested sums and products, DEPTH levels deep.
buildExpr :: Int -> Int -> Expr
buildExpr seed depth
  | depth <= 0 = Lit (seed `mod` 10)
  | even seed = Add [buildExpr (seed * 3 + k) (depth - 1) | k <- [1 .. 3]]
  | seed `mod` 3 == 0 = Neg (buildExpr (seed + 7) (depth - 1))
  | otherwise = Mul [buildExpr (seed + k) (depth - 1) | k <- [1, 2]]

-- | Mutual recursion: evalExpr -> evalArgs -> evalExpr.
evalExpr :: Expr -> Int
evalExpr (Lit n) = n
evalExpr (Add es) = evalArgs (+) 0 es
evalExpr (Mul es) = evalArgs (\a b -> (a * b) `mod` 1000003) 1 es
evalExpr (Neg e) = negate (evalExpr e)

evalArgs :: (Int -> Int -> Int) -> Int -> [Expr] -> Int
evalArgs f z = foldl' (\acc e -> f acc (evalExpr e)) z

-- | Compute-heavy and non-allocating.
collatzMax :: Int -> Int
collatzMax n = go 1 0
  where
    go :: Int -> Int -> Int
    go !i !best
      | i > n = best
      | otherwise = go (i + 1) (max best (steps i 0))
    steps :: Int -> Int -> Int
    steps 1 !k = k
    steps m !k = steps (if even m then m `div` 2 else 3 * m + 1) (k + 1)

-- | Shared callee (from score and from checksum).
mixHash :: Int -> Int -> Int
mixHash h x = (h * 16777619 + x * 2654435761) `mod` 4294967291

-- | Allocation-heavy: a map from generated names to numbers.
buildIndex :: Int -> M.Map String Int
buildIndex n = M.fromList [(nameOf i, i) | i <- [1 .. n]]

nameOf :: Int -> String
nameOf i = "item-" ++ show ((i * 7919) `mod` 100003)

score :: M.Map String Int -> String -> Int
score idx k = maybe 0 (\v -> foldl' mixHash v (map fromEnum k)) (M.lookup k idx)

lookupAll :: M.Map String Int -> [String] -> Int
lookupAll idx = foldl' (\acc k -> (acc + score idx k) `mod` 1000000007) 0

answer :: M.Map String Int -> Int -> Int
answer idx q = lookupAll idx [nameOf (q * 31 + j) | j <- [1 .. 40]]

-- | Shared callee (from report and from runQueries).
renderRow :: Int -> Int -> String
renderRow i v = "row " ++ show i ++ ": " ++ show v ++ replicate (i `mod` 7) '.'

runQueries :: M.Map String Int -> Int -> (Int, Int)
runQueries idx n = foldl' step (0, 0) [1 .. n]
  where
    step (!acc, !len) q =
      let a = answer idx q
       in ((acc + a) `mod` 1000000007, len + length (renderRow q a))

checksum :: [Int] -> Int
checksum = foldl' mixHash 17

-- | Uses the CAF primeTable (as does primeSum).
primeCount :: Int -> Int
primeCount n = length (takeWhile (<= n) primeTable)

primeSum :: Int -> Int
primeSum n = checksum (takeWhile (<= n) primeTable)

report :: [(Int, Int)] -> Int
report rows = sum [length (renderRow i v) | (i, v) <- rows]

main :: IO ()
main = do
  args <- getArgs
  let scale = case args of
        (a : _) -> read a
        [] -> 100 :: Int
      collatzWork = if drop 1 args == ["slow"] then 4 else 1
  let idx = buildIndex (200 * scale)
  putStrLn ("index: " ++ show (M.size idx))
  let (q, qlen) = runQueries idx (30 * scale)
  putStrLn ("queries: " ++ show q ++ " " ++ show qlen)
  let exprs = [buildExpr s (10 + s `mod` 3) | s <- [1 .. scale `div` 4]]
  putStrLn ("eval: " ++ show (sum (map evalExpr exprs)))
  putStrLn ("collatz: " ++ show (collatzMax (2000 * scale * collatzWork)))
  putStrLn ("primes: " ++ show (primeCount (500 * scale)) ++ " " ++ show (primeSum (300 * scale)))
  putStrLn ("report: " ++ show (report [(i, i * i) | i <- [1 .. 50 * scale]]))
